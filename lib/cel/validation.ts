import { goQuote } from '../go/strconv';

/*
 * apimachinery field errors as `field.Error.Error()` prints them (pkg/util/validation/field/errors.go):
 * `<path>: <body>`, where a string bad value is Go-quoted.
 */

export const required = (path: string): string => `${path}: Required value`;
export const duplicate = (path: string, value: string): string => `${path}: Duplicate value: ${goQuote(value)}`;
export const invalid = (path: string, value: string, detail: string): string => `${path}: Invalid value: ${goQuote(value)}: ${detail}`;
export const tooMany = (path: string, actual: number, max: number): string => `${path}: Too many: ${actual}: must have at most ${max} items`;
