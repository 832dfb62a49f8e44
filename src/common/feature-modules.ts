import type { DynamicModule, Provider, Type } from '@nestjs/common';

/**
 * What the composition root built from the process's resources, each provided under its own class:
 * the token controllers and services inject it by.
 */
export function providedByClass(...instances: object[]): Provider[] {
  return instances.map((instance) => ({ provide: instance.constructor, useValue: instance }));
}

/** The module of a feature that is one controller and the one service it calls. */
export function oneServiceModule(module: Type, controller: Type, service: object): DynamicModule {
  return { module, controllers: [controller], providers: providedByClass(service) };
}
