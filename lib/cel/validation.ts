import { goQuote } from '../go/strconv';
import { dns1123SubdomainErrors } from '../kube/names';

/*
 * apimachinery field errors as `field.Error.Error()` prints them (pkg/util/validation/field/errors.go):
 * `<path>: <body>`, where a string bad value is Go-quoted.
 */

export const required = (path: string): string => `${path}: Required value`;
export const duplicate = (path: string, value: string): string => `${path}: Duplicate value: ${goQuote(value)}`;
export const invalid = (path: string, value: string, detail: string): string => `${path}: Invalid value: ${goQuote(value)}: ${detail}`;
export const tooMany = (path: string, actual: number, max: number): string => `${path}: Too many: ${actual}: must have at most ${max} items`;

const LABEL_KEY = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY}$`);
const LABEL_KEY_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_EXAMPLES = "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '" + LABEL_KEY + "')";

/**
 * apimachinery `IsQualifiedName` (= content.IsLabelKey, pkg/api/validate/content/kube.go): an
 * optional DNS-subdomain prefix and `/`, then a name of at most 63 bytes.
 */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${LABEL_KEY_MESSAGE} ${LABEL_KEY_EXAMPLES} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((message) => `prefix part ${message}`));
  }
  if (name === '') errors.push('name part must be non-empty');
  else if (Buffer.byteLength(name) > 63) errors.push('name part must be no more than 63 bytes');
  if (!LABEL_KEY_RE.test(name)) errors.push(`name part ${LABEL_KEY_MESSAGE} ${LABEL_KEY_EXAMPLES}`);
  return errors;
}
