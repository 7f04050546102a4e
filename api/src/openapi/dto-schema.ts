import type { Type } from '@nestjs/common';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, type ValidationArguments } from 'class-validator';

/*
 * The OpenAPI schema of a request DTO, read from its class-validator checks: the checks are
 * the one source of what a field takes, so the document cannot drift from what is validated
 * (no `@ApiProperty` restating each rule). Checks of our own (`ValidateBy`) are described by
 * their message, and typed by the property's emitted type.
 */

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** A reference to the component schema of a DTO class. */
export function refTo(dto: Type): ReferenceObject {
  return { $ref: `#/components/schemas/${dto.name}` };
}

/** Adds the schema of `dto` (and of the DTOs nested in it) to `into`, by class name. */
export function addDtoSchema(dto: Type, into: Record<string, SchemaObject | ReferenceObject>): void {
  if (into[dto.name]) return;
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  into[dto.name] = { type: 'object', properties, additionalProperties: false };
  for (const [name, checks] of checksByProperty(dto)) {
    properties[name] = propertySchema(dto, name, checks, into);
    if (!checks.some((c) => c.type === 'conditionalValidation')) required.push(name);
  }
  if (required.length > 0) (into[dto.name] as SchemaObject).required = required;
}

/** The properties of a DTO as query parameters (query strings are flat: no nested DTOs). */
export function queryParameters(dto: Type): { name: string; required: boolean; schema: SchemaObject }[] {
  const nested: Record<string, SchemaObject | ReferenceObject> = {};
  return [...checksByProperty(dto)].map(([name, checks]) => ({
    name,
    required: !checks.some((c) => c.type === 'conditionalValidation'),
    schema: propertySchema(dto, name, checks, nested),
  }));
}

function checksByProperty(dto: Type): Map<string, ValidationMetadata[]> {
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const check of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    byProperty.set(check.propertyName, [...(byProperty.get(check.propertyName) ?? []), check]);
  }
  return byProperty;
}

/** What the common checks say of a value; `each` checks say it of an array's items. */
const CHECKS: Record<string, (constraints: unknown[]) => SchemaObject> = {
  isString: () => ({ type: 'string' }),
  isInt: () => ({ type: 'integer' }),
  isNumber: () => ({ type: 'number' }),
  isBoolean: () => ({ type: 'boolean' }),
  isArray: () => ({ type: 'array' }),
  isObject: () => ({ type: 'object' }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  isNotEmpty: () => ({}),
  isIn: ([values]) => enumOf(values as unknown[]),
  equals: ([value]) => enumOf([value]),
  min: ([n]) => ({ minimum: n as number }),
  max: ([n]) => ({ maximum: n as number }),
  minLength: ([n]) => ({ minLength: n as number }),
  maxLength: ([n]) => ({ maxLength: n as number }),
  length: ([min, max]) => ({ minLength: min as number, ...(typeof max === 'number' ? { maxLength: max } : {}) }),
  matches: ([pattern]) => ({ type: 'string', pattern: pattern instanceof RegExp ? pattern.source : String(pattern) }),
  arrayMaxSize: ([n]) => ({ type: 'array', maxItems: n as number }),
  arrayNotEmpty: () => ({ type: 'array', minItems: 1 }),
  arrayUnique: () => ({ type: 'array', uniqueItems: true }),
};

function enumOf(values: unknown[]): SchemaObject {
  const type = values.every((v) => typeof v === 'string') ? 'string' : values.every(Number.isInteger) ? 'integer' : undefined;
  return { ...(type ? { type } : {}), enum: values };
}

function propertySchema(dto: Type, name: string, checks: readonly ValidationMetadata[], into: Record<string, SchemaObject | ReferenceObject>): SchemaObject {
  const schema: SchemaObject = {};
  const items: SchemaObject & Partial<ReferenceObject> = {};
  const described: string[] = [];
  // class-validator lists a property's checks from the decorator nearest to it; read them top down.
  for (const check of [...checks].reverse()) {
    if (check.type === 'nestedValidation') {
      const nested = nestedClass(dto, name, check.each);
      if (nested) {
        addDtoSchema(nested, into);
        if (check.each) Object.assign(items, refTo(nested));
        else Object.assign(schema, { allOf: [refTo(nested)] });
      }
      continue;
    }
    if (check.type !== 'customValidation' || !check.name) continue;
    const rule = CHECKS[check.name];
    if (rule) Object.assign(check.each ? items : schema, rule(check.constraints ?? []));
    else described.push(messageOf(check));
  }
  // A reference stands alone (OpenAPI 3.0 ignores what is beside it): the nested DTO says it all.
  if (Object.keys(items).length > 0) Object.assign(schema, { type: 'array', items: items.$ref ? { $ref: items.$ref } : items });
  if (schema.type === undefined && schema.allOf === undefined && schema.enum === undefined) Object.assign(schema, emittedType(dto, name));
  if (described.length > 0) schema.description = `Refused with: ${described.join('; ')}`;
  return schema;
}

/** The class a nested check validates: the `@Type` that class-transformer applies, seen by applying it. */
function nestedClass(dto: Type, name: string, each: boolean): Type | undefined {
  const probe = plainToInstance(dto, { [name]: each ? [{}] : {} }) as Record<string, unknown>;
  const value = each ? (probe[name] as unknown[] | undefined)?.[0] : probe[name];
  const made = typeof value === 'object' && value !== null ? (value.constructor as Type) : undefined;
  return made && made !== Object ? made : undefined;
}

/** The TypeScript type of the property, as the compiler emitted it (decorator metadata). */
function emittedType(dto: Type, name: string): SchemaObject {
  const type: unknown = Reflect.getMetadata('design:type', dto.prototype as object, name);
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  if (type === Array) return { type: 'array', items: {} };
  return {};
}

/** The text a check fails with, which states the rule; for a check this module does not map. */
function messageOf(check: ValidationMetadata): string {
  const args: ValidationArguments = { value: undefined, constraints: check.constraints ?? [], targetName: '', object: {}, property: check.propertyName };
  try {
    if (typeof check.message === 'string') return check.message;
    if (typeof check.message === 'function') return check.message(args);
    const [constraint] = getMetadataStorage().getTargetValidatorConstraints(check.constraintCls);
    const instance = constraint?.instance as { defaultMessage?: (a: ValidationArguments) => string } | undefined;
    return instance?.defaultMessage?.(args) ?? check.name ?? '';
  } catch {
    return check.name ?? '';
  }
}
