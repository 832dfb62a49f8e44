import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

/**
 * Paths redacted wherever they appear in a log object. Our own log calls pass ids and counts only;
 * this list is the safety net for an object logged by mistake (a request, an error with a payload).
 */
const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'body',
  '*.body',
  'patient',
  '*.patient',
  'payload',
  '*.payload',
  'payloads',
  '*.payloads',
];

export function createLogger(
  level: string,
  base: Record<string, unknown> = {},
  destination: pino.DestinationStream = pino.destination(1),
): Logger {
  return pino(
    {
      level,
      base: { service: 'healthcare-access-api', ...base },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
}

/** Routes Nest's own log lines into the same structured JSON stream. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
