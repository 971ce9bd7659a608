/** validatePullPolicy (containers' imagePullPolicy, image volumes' pullPolicy). */
import type { FieldError } from '../../kube/status';
import { json, notSupported, required } from '../../kube/field-errors';
import type { Path } from '../../kube/field-path';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

export function validatePullPolicy(policy: string, path: Path): FieldError[] {
  if (PULL_POLICIES.includes(policy)) return [];
  if (policy === '') return [required(path)];
  return [notSupported(path, json(policy), PULL_POLICIES)];
}
