/**
 * The quota evaluator for pods.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/pods.go` (Constraints, Handles, MatchingResources,
 * podMatchesScopeFunc, PodUsageFunc, podComputeUsageHelper, QuotaV1Pod, IsTerminating), with the v1.36
 * defaults of its feature gates (InPlacePodVerticalScaling and PodLevelResources on), and
 * `pkg/apis/core/v1/helper/qos` (GetPodQOS) for the BestEffort scopes.
 */
import { qualifiedNameErrors } from '../../kube/names';
import { compareQuantities } from '../../kube/quantity';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { objectCountName, type QuotaEvaluator } from './evaluator';
import { QUOTA_POD_RESOURCES, podLevelResourcesSet, podLimits, podRequests } from './pod-resources';
import { newQuantity } from './quantity-arithmetic';
import { addLists, resourceListFrom, type ResourceList } from './resource-list';
import { scopeSelectorMatches, type ScopeSelector } from './scope-selectors';

const POD_COUNT = objectCountName({ group: '', resource: 'pods' });

/** podResources: what the evaluator measures by exact name. */
const POD_RESOURCES = new Set([
  POD_COUNT,
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
]);
/** podResourcePrefixes. */
const POD_RESOURCE_PREFIXES = ['hugepages-', 'requests.hugepages-'];
const REQUESTS_PREFIX = 'requests.';
const DEVICE_CLASS_PREFIX = 'deviceclass.resource.kubernetes.io/';

/**
 * validationSet: the quota names that make every container state its own value. Upstream calls it a
 * mistake kept for compatibility; only cpu and memory are in it.
 */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** helper.IsNativeResource: no domain, or a `kubernetes.io/` one. */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** isExtendedResourceNameForQuota: `requests.<extended>` or `requests.deviceclass.resource.kubernetes.io/<class>`. */
export function isExtendedResourceNameForQuota(name: string): boolean {
  const implicitExtended = name.startsWith(REQUESTS_PREFIX + DEVICE_CLASS_PREFIX);
  return (!isNativeResource(name) || implicitExtended) && name.startsWith(REQUESTS_PREFIX);
}

/** v1helper.IsExtendedResourceName: a non-native name that is still a qualified name behind `requests.`. */
function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(REQUESTS_PREFIX)) return false;
  return qualifiedNameErrors(REQUESTS_PREFIX + name).length === 0;
}

/** schedutil.IsDRAExtendedResourceName. */
function isDraExtendedResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith(DEVICE_CLASS_PREFIX);
}

/** podComputeUsageHelper: the quota names a set of requests and limits accounts for. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const result: ResourceList = new Map([['pods', { mantissa: 1n, exponent: 0, format: 'DecimalSI', text: '1' }]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request !== undefined) {
      result.set(name, request);
      result.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit !== undefined) result.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      result.set(name, request);
      result.set(REQUESTS_PREFIX + name, request);
    }
    if (isDraExtendedResourceName(name)) result.set(REQUESTS_PREFIX + name, request);
  }
  return result;
}

/** IsTerminating: a non-negative activeDeadlineSeconds. */
export function isTerminating(pod: JsonRecord): boolean {
  const deadline = objectAt(pod, 'spec').activeDeadlineSeconds;
  return typeof deadline === 'number' && deadline >= 0;
}

const QOS_RESOURCES = ['cpu', 'memory'];

/**
 * GetPodQOS(pod) == BestEffort: the recorded `status.qosClass` (set on create from the final object),
 * else ComputePodQOS's answer — no positive cpu or memory request or limit, judged on the pod-level
 * resources when set, else on every container.
 */
function isBestEffort(pod: JsonRecord): boolean {
  const recorded = stringAt(objectAt(pod, 'status'), 'qosClass');
  if (recorded) return recorded === 'BestEffort';
  const spec = objectAt(pod, 'spec');
  const holders = podLevelResourcesSet(pod)
    ? [objectAt(spec, 'resources')]
    : [...listAt(spec, 'containers'), ...listAt(spec, 'initContainers')].map((c) => objectAt(c, 'resources'));
  const zero = newQuantity(0);
  return holders.every((resources) =>
    (['requests', 'limits'] as const).every((kind) => {
      const list = resourceListFrom(resources[kind]);
      return QOS_RESOURCES.every((name) => {
        const value = list.get(name);
        return value === undefined || compareQuantities(value, zero) <= 0;
      });
    }),
  );
}

/** A pod affinity term that reaches other namespaces (namespaces or a namespaceSelector). */
function crossNamespaceTerm(term: JsonRecord): boolean {
  const namespaces = term.namespaces;
  return (Array.isArray(namespaces) && namespaces.length > 0) || (term.namespaceSelector !== undefined && term.namespaceSelector !== null);
}

/** usesCrossNamespacePodAffinity. */
function usesCrossNamespacePodAffinity(pod: JsonRecord): boolean {
  const affinity = objectAt(objectAt(pod, 'spec'), 'affinity');
  return ['podAffinity', 'podAntiAffinity'].some((key) => {
    const terms = objectAt(affinity, key);
    return (
      listAt(terms, 'requiredDuringSchedulingIgnoredDuringExecution').some(crossNamespaceTerm) ||
      listAt(terms, 'preferredDuringSchedulingIgnoredDuringExecution').some((weighted) => crossNamespaceTerm(objectAt(weighted, 'podAffinityTerm')))
    );
  });
}

/** podMatchesScopeFunc. */
function podMatchesScope(selector: ScopeSelector, pod: JsonRecord): boolean {
  switch (selector.scopeName) {
    case 'Terminating':
      return isTerminating(pod);
    case 'NotTerminating':
      return !isTerminating(pod);
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const priorityClassName = stringAt(objectAt(pod, 'spec'), 'priorityClassName') ?? '';
      // Exists only asks whether the pod names a class.
      if (selector.operator === 'Exists') return priorityClassName !== '';
      return scopeSelectorMatches(selector, priorityClassName !== '' ? { PriorityClass: priorityClassName } : undefined);
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

/**
 * QuotaV1Pod: whether the pod's compute resources still count — not in a terminal phase, and not past
 * the grace period of a deletion.
 */
function chargedForCompute(pod: JsonRecord, now: Date): boolean {
  const phase = stringAt(objectAt(pod, 'status'), 'phase');
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const metadata = objectAt(pod, 'metadata');
  const deletion = stringAt(metadata, 'deletionTimestamp');
  const grace = metadata.deletionGracePeriodSeconds;
  if (deletion !== undefined && typeof grace === 'number') {
    const deadline = Date.parse(deletion) + grace * 1000;
    if (now.getTime() > deadline) return false;
  }
  return true;
}

export const podEvaluator: QuotaEvaluator = {
  handles({ operation, subResource = '', object, oldObject }) {
    switch (subResource) {
      case '':
        // An update is charged only when it moves the pod between the Terminating scopes.
        if (operation === 'UPDATE' && object && oldObject && isTerminating(oldObject) !== isTerminating(object)) return true;
        return operation === 'CREATE';
      case 'resize':
        return operation === 'UPDATE';
      default:
        return false;
    }
  },

  matchingResources(names) {
    const result = names.filter((name) => POD_RESOURCES.has(name));
    for (const name of names) {
      if (POD_RESOURCE_PREFIXES.some((prefix) => name.startsWith(prefix))) result.push(name);
      if (isExtendedResourceNameForQuota(name)) result.push(name);
    }
    return result;
  },

  matchesScope: podMatchesScope,

  constraints(required, pod) {
    // With pod-level resources set, containers need not state their own.
    if (podLevelResourcesSet(pod)) return undefined;
    const requiredSet = new Set(required.filter((name) => VALIDATION_SET.has(name)));
    const missing = new Map<string, Set<string>>();
    const spec = objectAt(pod, 'spec');
    for (const container of [...listAt(spec, 'containers'), ...listAt(spec, 'initContainers')]) {
      const resources = objectAt(container, 'resources');
      const stated = computeUsage(resourceListFrom(resources.requests), resourceListFrom(resources.limits));
      for (const name of requiredSet) {
        if (stated.has(name)) continue;
        const containers = missing.get(name) ?? new Set<string>();
        containers.add(stringAt(container, 'name') ?? '');
        missing.set(name, containers);
      }
    }
    if (missing.size === 0) return undefined;
    const sorted = (values: Iterable<string>) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const parts = sorted(missing.keys()).map((name) => `${name} for: ${sorted(missing.get(name) ?? []).join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },

  usage(pod, { now }) {
    // The object count is always charged, even for a pod at the end of its life.
    const result: ResourceList = new Map([[POD_COUNT, newQuantity(1)]]);
    if (!chargedForCompute(pod, now)) return result;
    return addLists(result, computeUsage(podRequests(pod, QUOTA_POD_RESOURCES), podLimits(pod, QUOTA_POD_RESOURCES)));
  },
};
