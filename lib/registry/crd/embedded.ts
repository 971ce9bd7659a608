/**
 * TypeMeta and ObjectMeta of `x-kubernetes-embedded-resource` objects (apiextensions-apiserver
 * pkg/apiserver/schema/objectmeta/validation.go `Validate`, which the strategy runs with
 * isResourceRoot=false: the custom resource's own metadata is validated separately). An embedded
 * resource needs `apiVersion` and `kind` (not `metadata`); its kind must be a DNS-1035 label in any
 * case, and its metadata is validated as ObjectMeta with path-segment names and no namespace rule.
 */
import { isObject, type Json } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { dns1035LabelErrors } from '../../kube/names';
import { invalid, required } from '../../kube/field-errors';
import { pathSegmentName } from '../../kube/name-validators';
import { at, child, index, key } from './field-path';
import { readObjectMeta } from './object-meta';
import { validateObjectMeta } from './object-meta-validation';
import { badValue } from './openapi/go-values';
import type { SchemaNode } from './schema-node';

export function validateEmbeddedResources(node: SchemaNode | undefined, value: Json, path = ''): FieldError[] {
  if (!node) return [];
  const errors: FieldError[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => errors.push(...validateEmbeddedResources(node.items, item, index(path, i))));
    return errors;
  }
  if (!isObject(value)) return errors;
  if (node.embeddedResource) errors.push(...validateEmbeddedResource(value, path));
  const extra = typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
  for (const [name, member] of Object.entries(value)) {
    const property = node.properties.get(name);
    if (property) errors.push(...validateEmbeddedResources(property, member, child(path, name)));
    else if (extra) errors.push(...validateEmbeddedResources(extra, member, key(path, name)));
  }
  return errors;
}

/** schema.ParseGroupVersion's error, for an apiVersion with more than one slash. */
function groupVersionError(apiVersion: string): string | undefined {
  return apiVersion.split('/').length > 2 ? `unexpected GroupVersion string: ${apiVersion}` : undefined;
}

function validateEmbeddedResource(object: Record<string, Json>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!Object.hasOwn(object, 'apiVersion')) errors.push(required(at(child(path, 'apiVersion'))));
  if (!Object.hasOwn(object, 'kind')) errors.push(required(at(child(path, 'kind'))));
  for (const [name, value] of Object.entries(object)) {
    const field = at(child(path, name));
    if (name === 'apiVersion') {
      if (typeof value !== 'string') errors.push(invalid(field, badValue(value), 'must be a string'));
      else if (value === '') errors.push(required(field));
      else {
        const error = groupVersionError(value);
        if (error) errors.push(invalid(field, value, error));
      }
    } else if (name === 'kind') {
      if (typeof value !== 'string') errors.push(invalid(field, badValue(value), 'must be a string'));
      else if (value === '') errors.push(required(field));
      else {
        const problems = dns1035LabelErrors(value.toLowerCase());
        if (problems.length > 0) errors.push(invalid(field, value, `may have mixed case, but should otherwise match: ${problems.join(',')}`));
      }
    } else if (name === 'metadata') {
      const meta = readObjectMeta(value, child(path, 'metadata'), false);
      if (meta.error !== undefined) errors.push(invalid(field, badValue(value), meta.error));
      else {
        const typed = { ...(meta.meta ?? {}) };
        // objectmeta/validation.go sets a placeholder name: an embedded object may leave it out.
        if (typeof typed.name !== 'string' || typed.name === '') typed.name = 'fakename';
        const namespaced = typeof typed.namespace === 'string' && typed.namespace !== '';
        errors.push(...validateObjectMeta(typed, namespaced, pathSegmentName, field));
      }
    }
  }
  return errors;
}
