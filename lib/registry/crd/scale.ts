/**
 * The scale subresource's checks on the custom resource itself (apiextensions-apiserver
 * pkg/registry/customresource/validator.go `ValidateScaleSpec`, `ValidateScaleStatus`): the fields
 * `specReplicasPath` and `statusReplicasPath` name must be int64s between 0 and 2147483647 when set,
 * and the `labelSelectorPath` field a string. The errors name the path as the CRD spells it, leading
 * dot included (`.spec.replicas: Invalid value: …`).
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { invalid } from '../../kube/field-errors';
import { Path } from '../../kube/field-path';
import { goTypeName, goValueText, isGoInt } from './openapi/go-values';

/** A CRD version's `subresources.scale`. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** unstructured.NestedFieldNoCopy's walk, with its accessor errors. */
function nested(object: JsonObject, fields: string[]): { value: Json | undefined; error?: string } {
  let current: Json = object;
  for (const [i, field] of fields.entries()) {
    if (!isObject(current)) {
      const at = `.${fields.slice(0, i).join('.')}`;
      return {
        value: undefined,
        error: `${at} accessor error: ${goValueText(current)} is of the type ${goTypeName(current)}, expected map[string]interface{}`,
      };
    }
    if (!Object.hasOwn(current, field)) return { value: undefined };
    current = current[field] as Json;
  }
  return { value: current };
}

const fieldsOf = (path: string) => path.replace(/^\./, '').split('.');

/** `NestedInt64`: 0 when missing, an error when not an int64. */
function replicasErrors(object: JsonObject, path: string): FieldError[] {
  const fields = fieldsOf(path);
  const found = nested(object, fields);
  const field = Path.of(path);
  if (found.error !== undefined) return [invalid(field, 0, found.error)];
  const value = found.value;
  if (value === undefined) return [];
  if (typeof value !== 'number' || !isGoInt(value)) {
    return [invalid(field, 0, `.${fields.join('.')} accessor error: ${goValueText(value)} is of the type ${goTypeName(value)}, expected int64`)];
  }
  if (value < 0) return [invalid(field, value, 'should be a non-negative integer')];
  if (value > 2147483647) return [invalid(field, value, 'should be less than or equal to 2147483647')];
  return [];
}

export function validateScaleSpec(object: JsonObject, scale: ScaleSubresource | undefined): FieldError[] {
  return scale ? replicasErrors(object, scale.specReplicasPath) : [];
}

export function validateScaleStatus(object: JsonObject, scale: ScaleSubresource | undefined): FieldError[] {
  if (!scale) return [];
  const errors = replicasErrors(object, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const fields = fieldsOf(scale.labelSelectorPath);
    const found = nested(object, fields);
    const field = Path.of(scale.labelSelectorPath);
    if (found.error !== undefined) errors.push(invalid(field, '', found.error));
    else if (found.value !== undefined && typeof found.value !== 'string') {
      errors.push(
        invalid(field, '', `.${fields.join('.')} accessor error: ${goValueText(found.value)} is of the type ${goTypeName(found.value)}, expected string`),
      );
    }
  }
  return errors;
}
