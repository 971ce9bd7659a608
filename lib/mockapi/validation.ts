/**
 * The object-metadata checks kube-apiserver runs on every create and update (ValidateObjectMeta with each
 * resource's name function), with apimachinery's texts.
 */
import { goQuote } from '../go/strconv';
import type { CatalogEntry } from '../kube/catalog';
import type { FieldError } from '../kube/status';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function dns1123Subdomain(name: string): string[] {
  const errors = name.length > 253 ? ['must be no more than 253 characters'] : [];
  if (!DNS1123_SUBDOMAIN.test(name)) {
    errors.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errors;
}

function dns1123Label(name: string): string[] {
  const errors = name.length > 63 ? ['must be no more than 63 characters'] : [];
  if (!DNS1123_LABEL.test(name)) {
    errors.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errors;
}

function dns1035Label(name: string): string[] {
  const errors = name.length > 63 ? ['must be no more than 63 characters'] : [];
  if (!DNS1035_LABEL.test(name)) {
    errors.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errors;
}

/** RBAC names only need to be usable as a path segment (`system:controller:x` is valid). */
function pathSegment(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

function nameRule(entry: CatalogEntry): (name: string) => string[] {
  if (entry.group === '' && entry.resource === 'namespaces') return dns1123Label;
  if (entry.group === '' && entry.resource === 'services') return dns1035Label;
  if (entry.group === 'rbac.authorization.k8s.io') return pathSegment;
  return dns1123Subdomain;
}

/** The metadata.name errors of an object about to be stored (its generateName already expanded). */
export function validateName(entry: CatalogEntry, name: string): FieldError[] {
  if (name === '') return [{ type: 'FieldValueRequired', field: 'metadata.name', body: 'Required value: name or generateName is required' }];
  return nameRule(entry)(name).map((detail) => ({ type: 'FieldValueInvalid', field: 'metadata.name', body: `Invalid value: ${goQuote(name)}: ${detail}` }));
}
