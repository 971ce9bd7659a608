/**
 * Whether one request fits the namespace's quotas, and what their usage becomes if it does.
 *
 * Upstream: `CheckRequest` in `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/
 * controller.go`, step for step, without the admission configuration's limitedResources (none by
 * default). Quotas are judged on their `status`: `status.hard` decides which apply, `status.used`
 * what is already spent.
 */
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { quotaMatches, type QuotaAttributes, type QuotaContext, type QuotaEvaluator } from './evaluator';
import {
  addLists,
  lessThanOrEqual,
  mask,
  negativeResources,
  prettyPrint,
  prettyPrintResourceNames,
  removeZeros,
  resourceListFrom,
  resourceNames,
  subtractWithNonNegativeResult,
  type ResourceList,
} from './resource-list';

/** One ResourceQuota as admission sees it: the object, and its parsed status. */
export interface QuotaState {
  name: string;
  object: JsonRecord;
  hard: ResourceList;
  used: ResourceList;
}

export function quotaStateOf(quota: JsonRecord): QuotaState {
  const status = objectAt(quota, 'status');
  return { name: stringAt(objectAt(quota, 'metadata'), 'name') ?? '', object: quota, hard: resourceListFrom(status.hard), used: resourceListFrom(status.used) };
}

/** The quotas with the usage they would have after the request, or why the request is refused. */
export type CheckResult = { ok: true; quotas: QuotaState[] } | { ok: false; cause: string };

/** hasUsageStats: every hard limit the evaluator measures has a recorded usage. */
function hasUsageStats(quota: QuotaState, restricted: readonly string[]): boolean {
  return restricted.every((name) => !quota.hard.has(name) || quota.used.has(name));
}

export function checkRequest(quotas: readonly QuotaState[], attributes: QuotaAttributes, evaluator: QuotaEvaluator, context: QuotaContext): CheckResult {
  const object = attributes.object;
  if (!evaluator.handles(attributes) || object === null) return { ok: true, quotas: [...quotas] };

  // The quotas that apply; each must find what it requires stated, and must have usage to count on.
  const interesting: number[] = [];
  for (const [index, quota] of quotas.entries()) {
    if (!quotaMatches(evaluator, quota.object, quota.hard, object)) continue;
    const restricted = evaluator.matchingResources(resourceNames(quota.hard));
    const missing = evaluator.constraints(restricted, object);
    if (missing !== undefined) return { ok: false, cause: `failed quota: ${quota.name}: ${missing}` };
    if (!hasUsageStats(quota, restricted)) {
      return { ok: false, cause: `status unknown for quota: ${quota.name}, resources: ${prettyPrintResourceNames(restricted)}` };
    }
    interesting.push(index);
  }

  const inputUsage = evaluator.usage(object, context);
  const negative = negativeResources(inputUsage);
  if (negative.length > 0) return { ok: false, cause: `quota usage is negative for resource(s): ${prettyPrintResourceNames(negative)}` };

  const deltas = new Map<number, ResourceList>(interesting.map((index) => [index, inputUsage]));
  if (attributes.operation === 'UPDATE') {
    const previous = attributes.oldObject;
    if (previous === null) return { ok: false, cause: 'unable to get previous usage since prior version of object was not found' };
    // A stored object has a resourceVersion; without one this is a create-on-update, charged in full.
    if (stringAt(objectAt(previous, 'metadata'), 'resourceVersion')) {
      const delta = subtractWithNonNegativeResult(inputUsage, evaluator.usage(previous, context));
      // A quota the old object did not fall under is charged the whole new usage.
      for (const index of interesting) {
        const quota = quotas[index] as QuotaState;
        if (quotaMatches(evaluator, quota.object, quota.hard, previous)) deltas.set(index, delta);
      }
    }
  }
  for (const [index, delta] of deltas) {
    const nonZero = removeZeros(delta);
    if (nonZero.size === 0) deltas.delete(index);
    else deltas.set(index, nonZero);
  }
  if (deltas.size === 0) return { ok: true, quotas: [...quotas] };

  const result = [...quotas];
  for (const index of interesting) {
    const delta = deltas.get(index);
    if (delta === undefined) continue;
    const quota = result[index] as QuotaState;
    const hardNames = resourceNames(quota.hard);
    const requested = mask(delta, hardNames);
    const newUsage = addLists(quota.used, requested);
    // A status update (a claim's allocated storage) is recorded, never refused.
    if ((attributes.subResource ?? '') !== 'status') {
      const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, resourceNames(requested)), quota.hard);
      if (!allowed) {
        return {
          ok: false,
          cause: `exceeded quota: ${quota.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(quota.used, exceeded))}, limited: ${prettyPrint(mask(quota.hard, exceeded))}`,
        };
      }
    }
    result[index] = { ...quota, used: newUsage };
  }
  return { ok: true, quotas: result };
}
