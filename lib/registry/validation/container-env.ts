/** A container's environment: env (with valueFrom) and envFrom (core validation ValidateEnv, ValidateEnvFrom). */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { objectOf, stringOf } from './access';
import { ENV_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './downward-api';
import { invalid, required } from '../../kube/field-errors';
import { configMapKeyErrors, relaxedEnvVarNameErrors } from '../../kube/value-formats';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import type { Path } from '../../kube/field-path';

/** validateConfigMapKeySelector / validateSecretKeySelector: the name is checked even when empty. */
function validateKeySelector(selector: JsonObject, path: Path): FieldError[] {
  const name = stringOf(selector, 'name');
  const errors = nameIsDnsSubdomain(name, false).map((message) => invalid(path.child('name'), name, message));
  const key = stringOf(selector, 'key');
  if (key === '') errors.push(required(path.child('key')));
  else errors.push(...configMapKeyErrors(key).map((message) => invalid(path.child('key'), key, message)));
  return errors;
}

/** validateEnvVarValueFrom. */
function validateValueFrom(env: JsonObject, path: Path): FieldError[] {
  const from = objectOf(env, 'valueFrom');
  if (!from) return [];
  const errors: FieldError[] = [];
  let sources = 0;
  const fieldRef = objectOf(from, 'fieldRef');
  if (fieldRef) {
    sources++;
    errors.push(...validateObjectFieldSelector(fieldRef, ENV_FIELD_PATHS, path.child('fieldRef')));
  }
  const resourceFieldRef = objectOf(from, 'resourceFieldRef');
  if (resourceFieldRef) {
    sources++;
    errors.push(...validateResourceFieldSelector(resourceFieldRef, path.child('resourceFieldRef'), false));
  }
  for (const key of ['configMapKeyRef', 'secretKeyRef']) {
    const selector = objectOf(from, key);
    if (!selector) continue;
    sources++;
    errors.push(...validateKeySelector(selector, path.child(key)));
  }
  if (sources === 0) errors.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (stringOf(env, 'value').length !== 0) errors.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errors.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errors;
}

/** ValidateEnv, with RelaxedEnvironmentVariableValidation (on by default in v1.36). */
export function validateEnv(vars: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  vars.forEach((env, i) => {
    const at = path.index(i);
    const name = stringOf(env, 'name');
    if (name === '') errors.push(required(at.child('name')));
    else errors.push(...relaxedEnvVarNameErrors(name).map((message) => invalid(at.child('name'), name, message)));
    errors.push(...validateValueFrom(env, at.child('valueFrom')));
  });
  return errors;
}

/** ValidateEnvFrom: prefixes, one source each; source names are checked as prefixes. */
export function validateEnvFrom(sources: readonly JsonObject[], path: Path): FieldError[] {
  const errors: FieldError[] = [];
  sources.forEach((source, i) => {
    const at = path.index(i);
    const prefix = stringOf(source, 'prefix');
    if (prefix.length > 0) errors.push(...relaxedEnvVarNameErrors(prefix).map((message) => invalid(at.child('prefix'), prefix, message)));
    let count = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = objectOf(source, key);
      if (!ref) continue;
      count++;
      const name = stringOf(ref, 'name');
      if (name === '') errors.push(required(at.child(key).child('name')));
      else errors.push(...nameIsDnsSubdomain(name, true).map((message) => invalid(at.child(key).child('name'), name, message)));
    }
    if (count === 0) errors.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errors.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errors;
}
