import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';

import { CONSOLE_CONTROLLERS } from '../../src/console';
import { ConsolePage } from '../../src/console/console-page';

interface RouteHandler {
  name: string;
  takesPage: boolean;
  parameters: number;
  responseIndexes: number[];
}

/** Every route handler of the console's controllers, with where Nest hands it the response. */
function consoleHandlers(): RouteHandler[] {
  return CONSOLE_CONTROLLERS.flatMap((controller) => {
    const prototype = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(prototype)
      .filter((key) => Reflect.getMetadata(METHOD_METADATA, prototype[key] as object) !== undefined)
      .map((key) => {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<
          string,
          { index: number }
        >;
        const declared = (Reflect.getMetadata('design:paramtypes', prototype, key) ?? []) as unknown[];
        return {
          name: `${controller.name}.${key}`,
          takesPage: declared.includes(ConsolePage),
          parameters: declared.length,
          responseIndexes: Object.entries(args)
            .filter(([type]) => Number(type.split(':')[0]) === RouteParamtypes.RESPONSE)
            .map(([, arg]) => arg.index),
        };
      });
  });
}

/**
 * `Page()` tells Nest that the handler answers on the response itself by declaring an `@Res()` past
 * the handler's own parameters. If that declaration went missing, Nest would send the handler's result
 * after the page and fail with headers already sent; if it fell on a parameter of the handler's own,
 * that parameter would receive the response.
 */
describe("the console's route handlers", () => {
  it('that take a page answer on its response themselves, through one response parameter past their own', () => {
    const pageHandlers = consoleHandlers().filter(({ takesPage }) => takesPage);

    expect(pageHandlers.length).toBeGreaterThan(50);
    const misplaced = pageHandlers.filter(
      ({ parameters, responseIndexes }) => responseIndexes.length !== 1 || responseIndexes[0]! < parameters,
    );
    expect(misplaced.map(({ name }) => name)).toEqual([]);
  });
});
