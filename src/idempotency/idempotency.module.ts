import { DynamicModule, Global, Module } from '@nestjs/common';

import { IdempotencyRepository } from '../../infrastructure/idempotency/idempotency.repository';

// The decorators and helpers every feature's idempotent POSTs use.
export { claimingKey, IDEMPOTENCY_KEY_PATTERN, IdempotencyKeyHeader } from './idempotency-key';
export type { IdempotentAttempt } from './idempotency.interceptor';
export { CurrentIdempotentAttempt, Idempotent, IdempotentPost } from './idempotent.decorator';

/**
 * The Idempotency-Key store, global so `Idempotent()` works on a controller of any module: Nest
 * builds the route's interceptor in the controller's own module.
 */
@Global()
@Module({})
export class IdempotencyModule {
  static forRoot(keys: IdempotencyRepository): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [{ provide: IdempotencyRepository, useValue: keys }],
      exports: [IdempotencyRepository],
    };
  }
}
