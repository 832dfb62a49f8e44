import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

import { ConsoleSessionsRepository } from '../../infrastructure/console/console-sessions.repository';
import { SqlRateLimiter } from '../../infrastructure/rate-limits/sql-rate-limiter';
import { ApiKeyAuthenticator, authenticateBeforeBody, RateLimiter } from '../auth/auth.module';
import { CASE_DOCUMENT_ROUTES } from '../cases/cases.module';
import { allowCodecOrigin } from '../common/codec-cors';
import { ErrorFilter } from '../common/error.filter';
import {
  jsonBodyParser,
  requestContextMiddleware,
  requireJsonBody,
  translateBodyParserErrors,
  type RequestObserver,
} from '../common/http-edge';
import { NestPinoLogger } from '../common/logger';
import { createValidationPipe } from '../common/validation';
import { consoleEdge, CONSOLE_PATH, sendConsoleError } from '../console/console.module';
import { formularyUploadBody, isFormularyCsv } from '../formularies/formularies.module';
import { AppDependencies, AppModule } from './app.module';
import { serveOpenApiDocument } from './openapi';

type ExpressLayer = { route?: { methods: Record<string, boolean> }; match(path: string): unknown };

/**
 * Builds the HTTP application with the edge behaviour of contract sections 1 and 7; `observeRequest`
 * receives every answered request (the API process's metrics).
 */
export async function createApp(
  deps: AppDependencies & { observeRequest?: RequestObserver },
): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(deps), {
    bodyParser: false,
    logger: new NestPinoLogger(deps.logger),
  });
  const { config } = deps;
  app.disable('x-powered-by');
  // Behind a load balancer every socket is the balancer's: limits per client address need the client's.
  if (config.http.trustedProxyHops > 0) app.set('trust proxy', config.http.trustedProxyHops);

  app.use(requestContextMiddleware(deps.logger, deps.observeRequest));
  app.use('/codec', codecCors(config.codec.corsOrigins));
  app.use(CONSOLE_PATH, consoleEdge(app.get(ConsoleSessionsRepository)));
  app.use(
    authenticateBeforeBody({
      config,
      authenticator: app.get(ApiKeyAuthenticator),
      keyedLimiter: app.get(SqlRateLimiter),
      keylessLimiter: app.get(RateLimiter),
    }),
  );
  app.use(formularyUploadBody());
  app.use(requireJsonBody(isFormularyCsv));
  app.use(jsonBodyParser(config.http.maxBodyBytes, CASE_DOCUMENT_ROUTES));
  app.use(translateBodyParserErrors);

  const router = () =>
    (app.getHttpAdapter().getInstance() as unknown as { router: { stack: ExpressLayer[] } }).router;
  app.useGlobalFilters(
    new ErrorFilter(deps.logger, (path) => allowedMethods(router().stack, path), sendConsoleError),
  );
  app.useGlobalPipes(createValidationPipe());

  serveOpenApiDocument(app);

  await app.init();
  return app;
}

function allowedMethods(stack: ExpressLayer[], path: string): string[] {
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || !layer.match(path)) continue;
    for (const [method, enabled] of Object.entries(layer.route.methods)) {
      if (enabled && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  return [...methods].sort();
}

/** Temporal Web calls the codec from the operator's browser, so those routes answer CORS. */
function codecCors(allowedOrigins: string[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (origin && allowedOrigins.includes(origin)) {
      allowCodecOrigin(res, origin);
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
