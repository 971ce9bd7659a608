/**
 * LimitRanger's validation: the final object against each LimitRange of its namespace.
 *
 * Upstream: `plugin/pkg/admission/limitranger/admission.go` (Validate → runLimitFunc → ValidateLimit:
 * PodValidateLimitFunc for pods, PersistentVolumeClaimValidateLimitFunc for claims). One LimitRange's
 * failures are joined as a Go aggregate (`[a, b]`, or `a` alone); the first LimitRange that fails is
 * the answer, which kube-apiserver sends as `admission.NewForbidden` (403 `pods "x" is forbidden: …`).
 *
 * Upstream ranges over Go maps (`min`, `max`, `maxLimitRequestRatio`), so with several failing
 * resources in one item its order varies from call to call; here they go in sorted order.
 */
import { goAggregate } from '../../go/aggregate';
import type { Quantity } from '../../kube/quantity';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { LIMIT_RANGER_POD_RESOURCES, podLimits, podRequests } from '../resource-quota/pod-resources';
import { resourceListFrom, type ResourceList } from '../resource-quota/resource-list';
import { limitRequestRatioConstraint, maxConstraint, maxRequestConstraint, minConstraint } from './constraints';

type Check = (limitType: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList) => string | undefined;

/** The item's `field` as a ResourceList, in sorted order. */
function sortedList(item: JsonRecord, field: string): ResourceList {
  const list = resourceListFrom(item[field]);
  return new Map([...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** min, max and maxLimitRequestRatio of one item against one set of requests and limits. */
function checkItem(item: JsonRecord, limitType: string, requests: ResourceList, limits: ResourceList, errors: string[]): void {
  const checks: [string, Check][] = [
    ['min', minConstraint],
    ['max', maxConstraint],
    ['maxLimitRequestRatio', limitRequestRatioConstraint],
  ];
  for (const [field, check] of checks) {
    for (const [name, enforced] of sortedList(item, field)) {
      const error = check(limitType, name, enforced, requests, limits);
      if (error !== undefined) errors.push(error);
    }
  }
}

function containerLists(container: JsonRecord): [ResourceList, ResourceList] {
  const resources = objectAt(container, 'resources');
  return [resourceListFrom(resources.requests), resourceListFrom(resources.limits)];
}

/** PodValidateLimitFunc: `Container` items per container (app, then init), `Pod` items on the pod's totals. */
function validatePod(limitRange: JsonRecord, pod: JsonRecord): string[] {
  const errors: string[] = [];
  const spec = objectAt(pod, 'spec');
  for (const item of listAt(objectAt(limitRange, 'spec'), 'limits')) {
    const limitType = stringAt(item, 'type') ?? '';
    if (limitType === 'Container') {
      for (const container of [...listAt(spec, 'containers'), ...listAt(spec, 'initContainers')]) {
        checkItem(item, limitType, ...containerLists(container), errors);
      }
    }
    if (limitType === 'Pod') {
      checkItem(item, limitType, podRequests(pod, LIMIT_RANGER_POD_RESOURCES), podLimits(pod, LIMIT_RANGER_POD_RESOURCES), errors);
    }
  }
  return errors;
}

/**
 * PersistentVolumeClaimValidateLimitFunc: `PersistentVolumeClaim` items hold `spec.resources.requests`
 * to their min and max (a claim's limits are not user input).
 */
function validateClaim(limitRange: JsonRecord, pvc: JsonRecord): string[] {
  const errors: string[] = [];
  const requests = resourceListFrom(objectAt(objectAt(pvc, 'spec'), 'resources').requests);
  for (const item of listAt(objectAt(limitRange, 'spec'), 'limits')) {
    const limitType = stringAt(item, 'type') ?? '';
    if (limitType !== 'PersistentVolumeClaim') continue;
    for (const [name, enforced] of sortedList(item, 'min')) {
      const error = minConstraint(limitType, name, enforced, requests, new Map());
      if (error !== undefined) errors.push(error);
    }
    for (const [name, enforced] of sortedList(item, 'max')) {
      const error = maxRequestConstraint(limitType, name, enforced, requests);
      if (error !== undefined) errors.push(error);
    }
  }
  return errors;
}

/**
 * LimitRanger's Validate of `object` (the request's resource: `pods` or `persistentvolumeclaims`;
 * others pass) against the namespace's LimitRanges in order. Answers the error text kube-apiserver puts
 * after `<resource> "<name>" is forbidden: `, or undefined. Run it only when `limitRangerHandles` says so.
 */
export function limitRangerValidate(object: JsonRecord, resource: string, limitRanges: readonly JsonRecord[]): string | undefined {
  for (const limitRange of limitRanges) {
    let errors: string[];
    if (resource === 'pods') errors = validatePod(limitRange, object);
    else if (resource === 'persistentvolumeclaims') errors = validateClaim(limitRange, object);
    else return undefined;
    if (errors.length > 0) return goAggregate(errors);
  }
  return undefined;
}
