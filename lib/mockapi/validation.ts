/**
 * The object-metadata checks kube-apiserver runs on every create and update (ValidateObjectMeta with each
 * resource's name function), with apimachinery's texts.
 */
import { goQuote } from '../go/strconv';
import type { CatalogEntry } from '../kube/catalog';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors } from '../kube/names';
import type { FieldError } from '../kube/status';

/** RBAC names only need to be usable as a path segment (`system:controller:x` is valid). */
function pathSegment(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

function nameRule(entry: CatalogEntry): (name: string) => string[] {
  if (entry.group === '' && entry.resource === 'namespaces') return dns1123LabelErrors;
  if (entry.group === '' && entry.resource === 'services') return dns1035LabelErrors;
  if (entry.group === 'rbac.authorization.k8s.io') return pathSegment;
  return dns1123SubdomainErrors;
}

/** The metadata.name errors of an object about to be stored (its generateName already expanded). */
export function validateName(entry: CatalogEntry, name: string): FieldError[] {
  if (name === '') return [{ type: 'FieldValueRequired', field: 'metadata.name', body: 'Required value: name or generateName is required' }];
  return nameRule(entry)(name).map((detail) => ({ type: 'FieldValueInvalid', field: 'metadata.name', body: `Invalid value: ${goQuote(name)}: ${detail}` }));
}
