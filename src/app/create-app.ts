import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';

import { ErrorFilter } from '../common/error.filter';
import { ApiError } from '../common/errors';
import { requestContextMiddleware, requireJsonBody } from '../common/http-edge';
import { NestPinoLogger } from '../common/logger';
import { createValidationPipe } from '../common/validation';
import { AppDependencies, AppModule } from './app.module';
import { serveOpenApiDocument } from './openapi';

type ExpressLayer = { route?: { methods: Record<string, boolean> }; match(path: string): unknown };

/** Builds the HTTP application with the edge behaviour of contract sections 1 and 7. */
export async function createApp(deps: AppDependencies): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(deps), {
    bodyParser: false,
    logger: new NestPinoLogger(deps.logger),
  });
  const { config } = deps;
  app.disable('x-powered-by');

  app.use(requestContextMiddleware(deps.logger));
  app.use('/codec', codecCors(config.codec.corsOrigins));
  app.use(requireJsonBody);
  app.use(express.json({ limit: config.http.maxBodyBytes, type: 'application/json', strict: true }));
  app.use(translateBodyParserErrors);

  const router = () =>
    (app.getHttpAdapter().getInstance() as unknown as { router: { stack: ExpressLayer[] } }).router;
  app.useGlobalFilters(new ErrorFilter(deps.logger, (path) => allowedMethods(router().stack, path)));
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

/** body-parser's errors become the contract's codes before Nest's generic handling can blur them. */
function translateBodyParserErrors(error: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const type = (error as { type?: string })?.type;
  if (type === 'entity.parse.failed') {
    next(new ApiError('invalid_json', 'The request body is not valid JSON.'));
  } else if (type === 'entity.too.large') {
    next(new ApiError('payload_too_large', 'The request body is larger than the service accepts.'));
  } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    next(new ApiError('unsupported_media_type', 'Request bodies must be UTF-8 JSON.'));
  } else {
    next(error);
  }
}

/** Temporal Web calls the codec from the operator's browser, so those routes answer CORS. */
function codecCors(allowedOrigins: string[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (origin && allowedOrigins.includes(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Namespace');
      res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}
