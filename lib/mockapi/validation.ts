/**
 * The object-metadata name check the mock API runs on every create: the kind's name rule
 * (lib/registry/validation), with apimachinery's texts.
 */
import { goQuote } from '../go/strconv';
import type { CatalogEntry } from '../kube/catalog';
import type { FieldError } from '../kube/status';
import { nameRuleOf } from '../kube/name-validators';

/** The metadata.name errors of an object about to be stored (its generateName already expanded). */
export function validateName(entry: CatalogEntry, name: string): FieldError[] {
  if (name === '') return [{ type: 'FieldValueRequired', field: 'metadata.name', body: 'Required value: name or generateName is required' }];
  return nameRuleOf(entry)(name, false).map((detail) => ({
    type: 'FieldValueInvalid',
    field: 'metadata.name',
    body: `Invalid value: ${goQuote(name)}: ${detail}`,
  }));
}
