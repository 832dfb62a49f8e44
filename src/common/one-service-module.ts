import type { DynamicModule, Type } from '@nestjs/common';

/**
 * The module of a feature that is one controller and the one service it calls, built by the
 * composition root from the process's resources; the controller injects the service by its class.
 */
export function oneServiceModule(module: Type, controller: Type, service: object): DynamicModule {
  return {
    module,
    controllers: [controller],
    providers: [{ provide: service.constructor, useValue: service }],
  };
}
