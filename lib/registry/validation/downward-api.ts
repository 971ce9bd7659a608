/**
 * Downward API selectors, shared by env vars and downwardAPI volumes (core validation
 * validateObjectFieldSelector, validateContainerResourceFieldSelector, validateContainerResourceDivisor,
 * and pods.ConvertDownwardAPIFieldLabel / fieldpath.SplitMaybeSubscriptedPath).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { canonicalQuantity, isZeroQuantity } from '../../kube/quantity';
import { has, stringOf, valueOf } from './access';
import { invalid, notSupported, required } from '../../kube/field-errors';
import { qualifiedNameErrors } from '../../kube/value-formats';
import type { Path } from '../../kube/field-path';
import { quantityOf } from './resources';

/** validEnvDownwardAPIFieldPathExpressions, sorted as sets.List gives them. */
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

/** validVolumeDownwardAPIFieldPathExpressions, sorted. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];

/** validContainerResourceFieldPathExpressions, sorted. */
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGEPAGES_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

const CONVERTIBLE_FIELD_PATHS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['app']` → path and subscript. */
function splitSubscript(fieldPath: string): { path: string; subscript: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const body = fieldPath.slice(0, -2);
  const at = body.indexOf("['");
  if (at <= 0) return undefined;
  return { path: body.slice(0, at), subscript: body.slice(at + 2) };
}

/** pods.ConvertDownwardAPIFieldLabel: the internal field path, or the conversion error's text. */
function convertFieldLabel(apiVersion: string, label: string): { path: string } | { error: string } {
  if (apiVersion !== 'v1') return { error: `unsupported pod version: ${apiVersion}` };
  const split = splitSubscript(label);
  if (split) {
    if (split.path === 'metadata.annotations' || split.path === 'metadata.labels') return { path: label };
    return { error: `field label does not support subscript: ${label}` };
  }
  if (CONVERTIBLE_FIELD_PATHS.has(label)) return { path: label };
  if (label === 'spec.host') return { path: 'spec.nodeName' };
  return { error: `field label not supported: ${label}` };
}

/** validateObjectFieldSelector. */
export function validateObjectFieldSelector(selector: JsonObject, expressions: readonly string[], path: Path): FieldError[] {
  const apiVersion = stringOf(selector, 'apiVersion');
  if (apiVersion === '') return [required(path.child('apiVersion'))];
  const fieldPath = stringOf(selector, 'fieldPath');
  if (fieldPath === '') return [required(path.child('fieldPath'))];
  const converted = convertFieldLabel(apiVersion, fieldPath);
  if ('error' in converted) return [invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: ${converted.error}`)];
  const split = splitSubscript(converted.path);
  if (split) {
    if (split.path === 'metadata.annotations')
      return qualifiedNameErrors(split.subscript.toLowerCase()).map((message) => invalid(path, split.subscript.toLowerCase(), message));
    if (split.path === 'metadata.labels') return qualifiedNameErrors(split.subscript).map((message) => invalid(path, split.subscript, message));
    return [invalid(path, split.path, 'does not support subscript')];
  }
  if (!expressions.includes(converted.path)) return [notSupported(path.child('fieldPath'), converted.path, expressions)];
  return [];
}

const CPU_DIVISORS = new Set(['1m', '1']);
const BYTE_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const BYTE_DIVISOR_TEXT = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';

/** validateContainerResourceDivisor: an unset (zero) divisor is fine. */
function validateDivisor(resource: string, selector: JsonObject, path: Path): FieldError[] {
  if (!has(selector, 'divisor')) return [];
  const divisor = quantityOf(valueOf(selector, 'divisor'));
  if (isZeroQuantity(divisor)) return [];
  const text = canonicalQuantity(divisor);
  const errors: FieldError[] = [];
  const at = path.child('divisor');
  if ((resource === 'limits.cpu' || resource === 'requests.cpu') && !CPU_DIVISORS.has(text)) {
    errors.push(invalid(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource"));
  } else if ((resource === 'limits.memory' || resource === 'requests.memory') && !BYTE_DIVISORS.has(text)) {
    errors.push(invalid(at, resource, `only divisor's values ${BYTE_DIVISOR_TEXT} are supported with the memory resource`));
  } else if ((resource === 'limits.ephemeral-storage' || resource === 'requests.ephemeral-storage') && !BYTE_DIVISORS.has(text)) {
    errors.push(invalid(at, resource, `only divisor's values ${BYTE_DIVISOR_TEXT} are supported with the local ephemeral storage resource`));
  }
  if (HUGEPAGES_PREFIXES.some((prefix) => resource.startsWith(prefix)) && !BYTE_DIVISORS.has(text)) {
    errors.push(invalid(at, resource, `only divisor's values ${BYTE_DIVISOR_TEXT} are supported with the hugepages resource`));
  }
  return errors;
}

/** validateContainerResourceFieldSelector; `volume`: a downwardAPI volume file, which must name its container. */
export function validateResourceFieldSelector(selector: JsonObject, path: Path, volume: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const resource = stringOf(selector, 'resource');
  if (volume && stringOf(selector, 'containerName') === '') {
    errors.push(required(path.child('containerName')));
  } else if (resource === '') {
    errors.push(required(path.child('resource')));
  } else if (!RESOURCE_FIELD_PATHS.includes(resource) && !HUGEPAGES_PREFIXES.some((prefix) => resource.startsWith(prefix))) {
    errors.push(notSupported(path.child('resource'), resource, RESOURCE_FIELD_PATHS));
  }
  return [...errors, ...validateDivisor(resource, selector, path)];
}
