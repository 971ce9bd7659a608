/**
 * LimitRanger's mutation: the default requests and limits of the namespace's LimitRanges, given to
 * every container and init container that does not state them, noted in an annotation.
 *
 * Upstream: `plugin/pkg/admission/limitranger/admission.go` (PodMutateLimitFunc,
 * defaultContainerResourceRequirements, mergeContainerResources, mergePodResourceRequirements).
 */
import { canonicalQuantity, quantityFromJson } from '../../kube/quantity';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { sortedMap } from '../../registry/shape';

/** The annotation naming what the plugin set. */
export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

type Kind = 'requests' | 'limits';

/** Quantity values as the LimitRange's (decoded) Quantities print: `"0.5"` becomes `"500m"`. */
type Defaults = Record<Kind, Map<string, string>>;

/**
 * defaultContainerResourceRequirements: `defaultRequest` and `default` of every `Container` item,
 * later items overriding earlier ones.
 */
function containerDefaults(limitRange: JsonRecord): Defaults {
  const defaults: Defaults = { requests: new Map(), limits: new Map() };
  for (const item of listAt(objectAt(limitRange, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    for (const [kind, field] of [
      ['requests', 'defaultRequest'],
      ['limits', 'default'],
    ] as const) {
      for (const [name, raw] of Object.entries(objectAt(item, field))) {
        const quantity = quantityFromJson(raw);
        if (quantity !== undefined) defaults[kind].set(name, canonicalQuantity(quantity));
      }
    }
  }
  return defaults;
}

const sortStrings = (values: string[]) => values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** mergeContainerResources: fills what the container leaves out; the notes say what was set. */
function mergeContainer(container: JsonRecord, defaults: Defaults, prefix: string, notes: string[]): JsonRecord {
  const resources = objectAt(container, 'resources');
  const set: Record<Kind, string[]> = { requests: [], limits: [] };
  const lists: Partial<Record<Kind, JsonRecord>> = {};
  for (const kind of ['limits', 'requests'] as const) {
    const list = objectAt(resources, kind);
    const added: JsonRecord = {};
    for (const [name, value] of defaults[kind]) {
      if (Object.hasOwn(list, name)) continue;
      added[name] = value;
      set[kind].push(name);
    }
    // A Go map: kube-apiserver writes its keys sorted.
    if (set[kind].length > 0) lists[kind] = sortedMap({ ...list, ...added });
  }
  const name = stringAt(container, 'name') ?? '';
  if (set.requests.length > 0) notes.push(`${sortStrings(set.requests).join(', ')} request for ${prefix} ${name}`);
  if (set.limits.length > 0) notes.push(`${sortStrings(set.limits).join(', ')} limit for ${prefix} ${name}`);
  if (lists.limits === undefined && lists.requests === undefined) return container;
  return { ...container, resources: { ...resources, ...lists } };
}

/** PodMutateLimitFunc for one LimitRange: the pod and whether it changed. */
function applyLimitRange(pod: JsonRecord, limitRange: JsonRecord): JsonRecord | undefined {
  const defaults = containerDefaults(limitRange);
  if (defaults.requests.size === 0 && defaults.limits.size === 0) return undefined;
  const spec = objectAt(pod, 'spec');
  const notes: string[] = [];
  const containers = listAt(spec, 'containers').map((c) => mergeContainer(c, defaults, 'container', notes));
  const initContainers = listAt(spec, 'initContainers').map((c) => mergeContainer(c, defaults, 'init container', notes));
  if (notes.length === 0) return undefined;
  const metadata = objectAt(pod, 'metadata');
  // Each LimitRange that sets something replaces the annotation with its own list.
  const annotations = sortedMap({ ...objectAt(metadata, 'annotations'), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` });
  return {
    ...pod,
    metadata: { ...metadata, annotations },
    spec: { ...spec, ...(Array.isArray(spec.containers) ? { containers } : {}), ...(Array.isArray(spec.initContainers) ? { initContainers } : {}) },
  };
}

/**
 * LimitRanger's Admit on a pod: the namespace's LimitRanges in order, each defaulting what is still
 * unset. Answers the changed pod, or undefined when nothing was set. Run it only when
 * `limitRangerHandles` says so (a pod create, or its `resize`).
 */
export function limitRangerDefaults(pod: JsonRecord, limitRanges: readonly JsonRecord[]): JsonRecord | undefined {
  let result = pod;
  let changed = false;
  for (const limitRange of limitRanges) {
    const next = applyLimitRange(result, limitRange);
    if (next === undefined) continue;
    result = next;
    changed = true;
  }
  return changed ? result : undefined;
}
