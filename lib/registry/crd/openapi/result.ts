/**
 * kube-openapi's validation errors and results (pkg/validation/errors/schema.go, validate/result.go,
 * validate/schema_messages.go). Every schema failure is an `errors.Validation` with a code, the failing
 * path (`spec.replicas`, `spec.items[0].name`), a message that starts with that path and says
 * `in body`, and the offending value; the composite ones (anyOf/oneOf/allOf/not) are plain errors
 * quoting the path.
 */
import type { Json } from '../../../kube/json';
import { goQuote } from '../../../go/strconv';

export type Code =
  | 'InvalidType'
  | 'Required'
  | 'TooLong'
  | 'TooShort'
  | 'Pattern'
  | 'Enum'
  | 'MultipleOf'
  | 'Max'
  | 'Min'
  | 'Unique'
  | 'MaxItems'
  | 'MinItems'
  | 'TooFewProperties'
  | 'TooManyProperties'
  | 'UnallowedProperty';

/** An `errors.Validation`. */
export interface SchemaFailure {
  kind: 'validation';
  code: Code;
  /** The path as kube-openapi builds it; a property of the root has none before it, additionalProperties keys get a dot. */
  name: string;
  message: string;
  /** `Value`: what the field error shows. */
  value: Json | undefined;
  /** `Valid`: the limit a TooLong/TooMany error names. */
  valid?: number;
  /** `Values`: an enum's allowed values. */
  values?: readonly Json[];
}

/** A composite error (errors.New), which kube reports without a field. */
export interface CompositeFailure {
  kind: 'composite';
  message: string;
}

export type Failure = SchemaFailure | CompositeFailure;

const IN = 'body';

export function failure(
  code: Code,
  name: string,
  message: string,
  value: Json | undefined,
  extra: { valid?: number; values?: readonly Json[] } = {},
): SchemaFailure {
  return { kind: 'validation', code, name, message, value, ...extra };
}

/** errors.InvalidType: a string value is quoted into the message, any other value left out. */
export function invalidType(name: string, typeName: string, value: Json | undefined): SchemaFailure {
  const message =
    typeof value === 'string' ? `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}` : `${name} in ${IN} must be of type ${typeName}`;
  return failure('InvalidType', name, message, value);
}

export const required = (name: string) => failure('Required', name, `${name} in ${IN} is required`, undefined);

export const composite = (message: string): CompositeFailure => ({ kind: 'composite', message });

/** validate.Result: errors kept unique by message, and the match count anyOf/oneOf rank branches with. */
export class Result {
  readonly errors: Failure[] = [];
  matchCount = 0;

  add(...errors: Failure[]): this {
    for (const error of errors) if (!this.errors.some((known) => known.message === error.message)) this.errors.push(error);
    return this;
  }

  merge(...others: (Result | undefined)[]): this {
    for (const other of others) {
      if (!other) continue;
      this.add(...other.errors);
      this.matchCount += other.matchCount;
    }
    return this;
  }

  inc(): this {
    this.matchCount++;
    return this;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}
