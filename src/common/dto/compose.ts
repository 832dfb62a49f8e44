import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';

/**
 * What a field documents about itself (the @ApiProperty options our DTOs use); `optional` also lets
 * the validators skip an absent value, while `required: false` alone leaves presence to another rule.
 */
export interface FieldOptions {
  optional?: boolean;
  required?: boolean;
  description?: string;
  example?: unknown;
  enum?: readonly string[];
  type?: 'object' | (() => DtoClass | DtoClass[]);
  additionalProperties?: boolean | { type: string };
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

type DtoClass = new () => object;

/**
 * Composes decorators in the order they read when written one per line. TypeScript applies a written
 * stack bottom first, and class-validator reports (and src/app/openapi.ts merges) rules in the order
 * they were registered, so a composed field behaves exactly as the stack it replaces.
 */
export function Stack(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** The OpenAPI property, plus IsOptional when the field may be absent. */
export function Field({ optional = false, ...doc }: FieldOptions): PropertyDecorator {
  const options = doc as ApiPropertyOptions;
  if (!optional) return ApiProperty(options);
  return Stack(ApiPropertyOptional(options), IsOptional());
}

/** A non-empty string of at most `max` characters. */
function BoundedString(max: number): PropertyDecorator {
  return Stack(IsString(), Length(1, max));
}

/** A documented string field of 1 to `max` characters. */
export function TextField(max: number, options: FieldOptions = {}): PropertyDecorator {
  return Stack(Field(options), BoundedString(max));
}

/** A sub-object validated by its own class. */
export function NestedObject(type: () => DtoClass, options: FieldOptions = {}): PropertyDecorator {
  // @nestjs/swagger recognises a lazy type by the function's name, which only a `type:` property gives.
  return Stack(Field({ ...options, type: () => type() }), IsObject(), ValidateNested(), Type(type));
}

/** An array of sub-objects, each validated by its own class, within the given sizes. */
export function NestedArray(type: () => DtoClass, options: FieldOptions = {}): PropertyDecorator {
  const { minItems, maxItems } = options;
  return Stack(
    Field({ ...options, type: () => [type()] }),
    IsArray(),
    ...(minItems === undefined ? [] : [ArrayMinSize(minItems)]),
    ...(maxItems === undefined ? [] : [ArrayMaxSize(maxItems)]),
    ValidateNested({ each: true }),
    Type(type),
  );
}

/** Free-form JSON the service stores as given. */
export function JsonObjectField(options: FieldOptions = {}): PropertyDecorator {
  return Stack(Field({ type: 'object', additionalProperties: true, ...options }), IsObject());
}
