/**
 * Compute resources of containers and pods (core validation validateResourceRequirements,
 * validateContainerResourceName, validateResourceName, ValidateResourceQuantityValue, and the
 * resource helpers of pkg/apis/core/helper/helpers.go): names, quantities, requests ≤ limits.
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { canonicalQuantity, compareQuantities, parseQuantity, quantityFromJson, signOf, type Quantity } from '../../kube/quantity';
import { listOf, objectOf, sortedEntries, stringOf } from './access';
import { duplicate, forbidden, invalid, json, notFound, notSupported, required } from '../../kube/field-errors';
import { compareBytes } from '../../go/json-marshal';
import { dns1123LabelErrors, qualifiedNameErrors } from '../../kube/value-formats';
import { IS_NEGATIVE } from './numbers';
import type { Path } from '../../kube/field-path';
import { integerValue, milliValue } from './quantity-values';

const HUGEPAGES_PREFIX = 'hugepages-';
const REQUESTS_HUGEPAGES_PREFIX = 'requests.hugepages-';
const DEFAULT_NAMESPACE_PREFIX = 'kubernetes.io/';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);

/** helper.IsHugePageResourceName. */
export const isHugePageResourceName = (name: string): boolean => name.startsWith(HUGEPAGES_PREFIX);

/** helper.IsNativeResource: unprefixed, or in the kubernetes.io/ namespace. */
export const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes(DEFAULT_NAMESPACE_PREFIX);

/** helper.IsExtendedResourceName. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}

/** helper.IsOvercommitAllowed: native and not hugepages. */
export const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);

const isQuotaHugePageResourceName = (name: string): boolean => name.startsWith(HUGEPAGES_PREFIX) || name.startsWith(REQUESTS_HUGEPAGES_PREFIX);
const isStandardResourceName = (name: string): boolean => STANDARD_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
const isStandardContainerResourceName = (name: string): boolean => STANDARD_CONTAINER_RESOURCES.has(name) || isHugePageResourceName(name);
const isIntegerResourceName = (name: string): boolean => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);

/** validateResourceName: a qualified name, and a standard one when unprefixed. The value is a core.ResourceName (JSON-printed). */
export function validateResourceName(name: string, path: Path): FieldError[] {
  const errors = qualifiedNameErrors(name).map((message) => invalid(path, json(name), message));
  if (errors.length > 0) return errors;
  if (name.split('/').length === 1 && !isStandardResourceName(name)) return [invalid(path, json(name), 'must be a standard resource type or fully qualified')];
  return [];
}

/** validateContainerResourceName. */
export function validateContainerResourceName(name: string, path: Path): FieldError[] {
  const errors = validateResourceName(name, path);
  if (name.split('/').length === 1) {
    if (!isStandardContainerResourceName(name)) return [...errors, invalid(path, json(name), 'must be a standard resource for containers')];
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    return [...errors, invalid(path, json(name), "doesn't follow extended resource name standard")];
  }
  return errors;
}

/**
 * component-helpers resource.SupportedPodLevelResources, as the NotSupported error lists them (hugepages
 * are accepted by prefix but not listed).
 */
const SUPPORTED_POD_LEVEL_RESOURCES = ['cpu', 'memory'];

/** validatePodResourceName. */
function validatePodResourceName(name: string, path: Path): FieldError[] {
  const errors = validateResourceName(name, path);
  if (errors.length > 0) return errors;
  const supported = name === 'cpu' || name === 'memory' || isHugePageResourceName(name);
  return supported ? [] : [notSupported(path, json(name), SUPPORTED_POD_LEVEL_RESOURCES)];
}

/** A quantity from the object (decoded, so it parses). */
export function quantityOf(value: unknown): Quantity {
  return quantityFromJson(value) ?? { mantissa: 0n, exponent: 0, format: 'DecimalSI' };
}

/** ValidateResourceQuantityValue: not negative, and whole for integer resources. */
export function validateResourceQuantityValue(resource: string, quantity: Quantity, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (signOf(quantity) < 0) errors.push(invalid(path, canonicalQuantity(quantity), IS_NEGATIVE));
  if (isIntegerResourceName(resource) && milliValue(quantity) % 1000n !== 0n)
    errors.push(invalid(path, json(canonicalQuantity(quantity)), 'must be an integer'));
  return errors;
}

/** helper.IsHugePageResourceValueDivisible: a whole number of pages. */
function isHugePageValueDivisible(name: string, quantity: Quantity): boolean {
  const pageSize = parseQuantity(name.slice(HUGEPAGES_PREFIX.length));
  if (!pageSize || signOf(pageSize) <= 0 || milliValue(pageSize) % 1000n !== 0n) return false;
  const size = integerValue(pageSize);
  return size !== 0n && integerValue(quantity) % size === 0n;
}

function hugePageValueErrors(name: string, quantity: Quantity, path: Path): FieldError[] {
  if (!isHugePageResourceName(name) || isHugePageValueDivisible(name, quantity)) return [];
  return [invalid(path, canonicalQuantity(quantity), `${canonicalQuantity(quantity)} is not positive integer multiple of ${name}`)];
}

/** The members of a ResourceList, each name with its quantity, in a fixed (sorted) order. */
export function resourceList(list: JsonObject | undefined): [string, Quantity][] {
  return sortedEntries(list).map(([name, value]) => [name, quantityOf(value)]);
}

/** validateResourceClaimNames: container claims must name an entry of spec.resourceClaims. */
function validateResourceClaimNames(claims: readonly JsonObject[], podClaimNames: ReadonlySet<string>, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  claims.forEach((claim, i) => {
    const name = stringOf(claim, 'name');
    if (name === '') {
      errors.push(required(path.index(i)));
      return;
    }
    if (names.has(name)) {
      errors.push(duplicate(path.index(i), name));
    } else {
      let key = name;
      const request = stringOf(claim, 'request');
      if (request !== '') {
        errors.push(...dns1123LabelErrors(request).map((message) => invalid(path.index(i).child('request'), request, message)));
        key += `/${request}`;
      }
      if (names.has(key)) errors.push(duplicate(path.index(i), key));
      else if (request === '')
        for (const known of names) if (known.includes('/') && known.slice(0, known.indexOf('/')) === name) errors.push(duplicate(path.index(i), name));
      names.add(key);
    }
    if (!podClaimNames.has(name)) {
      const listed = [...podClaimNames].sort(compareBytes);
      const detail = `must be one of the names in pod.spec.resourceClaims${listed.length === 0 ? ' which is empty' : `: ${listed.join(', ')}`}`;
      errors.push(notFound(path.index(i), name, detail));
    }
  });
  return errors;
}

type NameCheck = (name: string, path: Path) => FieldError[];

/** validateResourceRequirements. Go ranges over the two maps in random order; names are taken sorted here. */
function validateResourceRequirements(
  requirements: JsonObject | undefined,
  nameCheck: NameCheck,
  podClaimNames: ReadonlySet<string>,
  path: Path,
): FieldError[] {
  const errors: FieldError[] = [];
  const limitsPath = path.child('limits');
  const requestsPath = path.child('requests');
  const limits = new Map(resourceList(objectOf(requirements, 'limits')));
  let limitsHaveCpuOrMemory = false;
  let requestsHaveCpuOrMemory = false;
  let limitsHaveHugePages = false;
  let requestsHaveHugePages = false;
  for (const [name, quantity] of limits) {
    const at = limitsPath.key(name);
    errors.push(...nameCheck(name, at));
    errors.push(...validateResourceQuantityValue(name, quantity, at));
    if (isHugePageResourceName(name)) {
      limitsHaveHugePages = true;
      errors.push(...hugePageValueErrors(name, quantity, at));
    }
    if (name === 'cpu' || name === 'memory') limitsHaveCpuOrMemory = true;
  }
  for (const [name, quantity] of resourceList(objectOf(requirements, 'requests'))) {
    const at = requestsPath.key(name);
    errors.push(...nameCheck(name, at));
    errors.push(...validateResourceQuantityValue(name, quantity, at));
    const limit = limits.get(name);
    if (limit) {
      const order = compareQuantities(quantity, limit);
      if (order !== 0 && !isOvercommitAllowed(name)) {
        errors.push(invalid(requestsPath, canonicalQuantity(quantity), `must be equal to ${name} limit of ${canonicalQuantity(limit)}`));
      } else if (order > 0) {
        errors.push(invalid(requestsPath, canonicalQuantity(quantity), `must be less than or equal to ${name} limit of ${canonicalQuantity(limit)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errors.push(required(limitsPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) {
      requestsHaveHugePages = true;
      errors.push(...hugePageValueErrors(name, quantity, at));
    }
    if (name === 'cpu' || name === 'memory') requestsHaveCpuOrMemory = true;
  }
  if (!limitsHaveCpuOrMemory && !requestsHaveCpuOrMemory && (requestsHaveHugePages || limitsHaveHugePages)) {
    errors.push(forbidden(path, 'HugePages require cpu or memory'));
  }
  errors.push(...validateResourceClaimNames(listOf(requirements, 'claims'), podClaimNames, path.child('claims')));
  return errors;
}

/** ValidateContainerResourceRequirements. */
export function validateContainerResources(requirements: JsonObject | undefined, podClaimNames: ReadonlySet<string>, path: Path): FieldError[] {
  return validateResourceRequirements(requirements, validateContainerResourceName, podClaimNames, path);
}

/** validatePodResourceRequirements (spec.resources, PodLevelResources on by default in v1.36). */
export function validatePodLevelResources(requirements: JsonObject | undefined, podClaimNames: ReadonlySet<string>, path: Path): FieldError[] {
  return validateResourceRequirements(requirements, validatePodResourceName, podClaimNames, path);
}

/** validateOverhead: the overhead list validated as limits. */
export function validateOverhead(overhead: JsonObject, path: Path): FieldError[] {
  return validateResourceRequirements({ limits: overhead }, validateContainerResourceName, new Set(), path);
}
