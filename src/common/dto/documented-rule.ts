import { registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';

type Validate = (value: unknown, args: ValidationArguments) => boolean;
type Message = string | ((args: ValidationArguments) => string);

/**
 * What a rule stands for in the OpenAPI document (src/app/openapi.ts reads it from the rule's
 * constraints): the value's schema, the enclosing object's schema, or prose where JSON Schema has
 * no words for the rule. Kept beside each rule so the document cannot drift from the validator.
 */
export interface DocumentedRule {
  schema?: Record<string, unknown>;
  objectSchema?: Record<string, unknown>;
  description?: string;
}

/** A validation rule of our own, declared with the words it refuses with and what it documents. */
export function documentedRule(
  name: string,
  validate: Validate,
  message: Message,
  options?: ValidationOptions,
  documented: DocumentedRule = {},
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      constraints: [documented],
      validator: {
        validate,
        defaultMessage: (args) => (typeof message === 'string' ? message : message(args!)),
      },
    });
}
