/*
 * apimachinery field errors as `field.Error.Error()` prints them, `<path>: <body>`, for the
 * matchConditions checks that report one-line texts: lib/registry/validation's constructors, whose
 * path is the already-printed one given here.
 */
import type { FieldError } from '../kube/status';
import * as field from '../kube/field-errors';
import { Path } from '../kube/field-path';

const text = (error: FieldError): string => `${error.field}: ${error.body}`;

export const required = (path: string): string => text(field.required(Path.of(path)));
export const duplicate = (path: string, value: string): string => text(field.duplicate(Path.of(path), value));
export const invalid = (path: string, value: string, detail: string): string => text(field.invalid(Path.of(path), value, detail));
export const tooMany = (path: string, actual: number, max: number): string => text(field.tooMany(Path.of(path), actual, max));
