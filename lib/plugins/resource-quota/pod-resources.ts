/**
 * A pod's effective requests and limits: what it asks of a node as a whole.
 *
 * Upstream: `staging/src/k8s.io/component-helpers/resource/helpers.go` (PodRequests, PodLimits,
 * AggregateContainerRequests/Limits, determineContainerReqs/Limits, IsPodResizeInfeasible,
 * IsSupportedPodLevelResource), which the quota's pod evaluator uses, and the simplified local copy in
 * `plugin/pkg/admission/limitranger/admission.go` (podRequests, podLimits), which the options select:
 * app containers and sidecars (init containers with `restartPolicy: Always`) add up, each plain init
 * container needs its own amount plus the sidecars started before it, and the pod needs the larger.
 */
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { addInto, maxInto, maxOfLists, resourceListFrom, type ResourceList } from './resource-list';

export interface PodResourcesOptions {
  /**
   * UseStatusResources: count what a running container holds (status resources and allocated
   * resources) when above its spec. The quota does (InPlacePodVerticalScaling, GA); LimitRanger does not.
   */
  useStatusResources: boolean;
  /** Add `spec.overhead` (the quota does; LimitRanger's copy ignores it). */
  includeOverhead: boolean;
  /** Which names of `spec.resources` (pod-level resources, on by default in v1.36) override the sum. */
  podLevelResource(name: string): boolean;
}

/** component-helpers' IsSupportedPodLevelResource: cpu, memory and hugepages-*. */
export function isSupportedPodLevelResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
}

/** The quota's options (pkg/quota/v1/evaluator/core/pods.go PodUsageFunc, v1.36 gates). */
export const QUOTA_POD_RESOURCES: PodResourcesOptions = {
  useStatusResources: true,
  includeOverhead: true,
  podLevelResource: isSupportedPodLevelResource,
};

/** LimitRanger's local copy: spec only, no overhead, pod-level cpu and memory only. */
export const LIMIT_RANGER_POD_RESOURCES: PodResourcesOptions = {
  useStatusResources: false,
  includeOverhead: false,
  podLevelResource: (name) => name === 'cpu' || name === 'memory',
};

type Kind = 'requests' | 'limits';

function isSidecar(container: JsonRecord): boolean {
  return container.restartPolicy === 'Always';
}

/** IsPodResizeInfeasible: the PodResizePending condition says Infeasible. */
function resizeInfeasible(pod: JsonRecord): boolean {
  const condition = listAt(objectAt(pod, 'status'), 'conditions').find((c) => c.type === 'PodResizePending');
  return condition !== undefined && condition.reason === 'Infeasible';
}

/** Container statuses by name: app and init containers alike (AggregateContainerRequests). */
function statusesByName(pod: JsonRecord): Map<string, JsonRecord> {
  const status = objectAt(pod, 'status');
  const byName = new Map<string, JsonRecord>();
  for (const cs of [...listAt(status, 'containerStatuses'), ...listAt(status, 'initContainerStatuses')]) {
    const name = stringAt(cs, 'name');
    if (name !== undefined) byName.set(name, cs);
  }
  return byName;
}

/** determineContainerReqs / determineContainerLimits: spec, or what the kubelet reports holding if more. */
function fromStatus(pod: JsonRecord, container: JsonRecord, cs: JsonRecord, kind: Kind): ResourceList {
  const actual = resourceListFrom(objectAt(objectAt(cs, 'resources'), kind));
  const spec = resourceListFrom(objectAt(objectAt(container, 'resources'), kind));
  if (kind === 'requests') {
    const allocated = resourceListFrom(cs.allocatedResources);
    return resizeInfeasible(pod) ? maxOfLists(actual, allocated) : maxOfLists(maxOfLists(spec, actual), allocated);
  }
  return resizeInfeasible(pod) ? actual : maxOfLists(spec, actual);
}

function containerList(pod: JsonRecord, container: JsonRecord, kind: Kind, statuses: Map<string, JsonRecord> | undefined): ResourceList {
  const cs = statuses?.get(stringAt(container, 'name') ?? '');
  // `cs.Resources != nil`: a status without a resources block says nothing.
  if (cs !== undefined && cs.resources !== undefined && cs.resources !== null) return fromStatus(pod, container, cs, kind);
  return resourceListFrom(objectAt(objectAt(container, 'resources'), kind));
}

function aggregate(pod: JsonRecord, kind: Kind, options: PodResourcesOptions): ResourceList {
  const spec = objectAt(pod, 'spec');
  const statuses = options.useStatusResources ? statusesByName(pod) : undefined;
  const total: ResourceList = new Map();
  for (const container of listAt(spec, 'containers')) addInto(total, containerList(pod, container, kind, statuses));

  const sidecars: ResourceList = new Map();
  const initPeak: ResourceList = new Map();
  for (const container of listAt(spec, 'initContainers')) {
    // Only sidecars can be resized, so only their status counts.
    const own = isSidecar(container) ? containerList(pod, container, kind, statuses) : containerList(pod, container, kind, undefined);
    let needs: ResourceList;
    if (isSidecar(container)) {
      addInto(total, own);
      addInto(sidecars, own);
      needs = sidecars;
    } else {
      needs = new Map();
      addInto(needs, own);
      addInto(needs, sidecars);
    }
    maxInto(initPeak, needs);
  }
  maxInto(total, initPeak);

  // Pod-level resources replace the sum for the names they set.
  const podLevel = resourceListFrom(objectAt(objectAt(spec, 'resources'), kind));
  for (const [name, value] of podLevel) if (options.podLevelResource(name)) total.set(name, value);
  return total;
}

/** PodRequests. */
export function podRequests(pod: JsonRecord, options: PodResourcesOptions): ResourceList {
  const requests = aggregate(pod, 'requests', options);
  if (options.includeOverhead) addInto(requests, resourceListFrom(objectAt(pod, 'spec').overhead));
  return requests;
}

/** PodLimits: overhead is added only to the limits the pod has. */
export function podLimits(pod: JsonRecord, options: PodResourcesOptions): ResourceList {
  const limits = aggregate(pod, 'limits', options);
  if (options.includeOverhead) {
    const overhead = resourceListFrom(objectAt(pod, 'spec').overhead);
    const present: ResourceList = new Map([...overhead].filter(([name]) => limits.has(name)));
    addInto(limits, present);
  }
  return limits;
}

/** IsPodLevelResourcesSet: `spec.resources` sets a supported pod-level resource. */
export function podLevelResourcesSet(pod: JsonRecord): boolean {
  const resources = objectAt(objectAt(pod, 'spec'), 'resources');
  return [...Object.keys(objectAt(resources, 'requests')), ...Object.keys(objectAt(resources, 'limits'))].some(isSupportedPodLevelResource);
}
