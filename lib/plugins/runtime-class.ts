import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { goQuote } from '../go/strconv';
import { isRecord, jsonEqual } from '../kube/json';
import { compareQuantities, quantityFromJson } from '../kube/quantity';
import { listAt, objectAt, stringAt, type JsonRecord } from '../kube/record';
import { acts, notInvolved, type AdmissionPhase, type Involvement } from './involved';
import type { PluginAttributes, PluginCluster } from './plugin';
import { isRequestFor, pluginForbidden, refusingPlugin } from './refusing-plugin';
import { mergeTolerations } from './tolerations';

// plugin/pkg/admission/runtimeclass/admission.go's refusals.
const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";
const OVERHEAD_WITHOUT_CLASS = 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';

type Lookup = { found: true; runtimeClass: JsonRecord | undefined } | { found: false; name: string };

/**
 * prepareObjects: the RuntimeClass the pod names (none when it names none); a name the cluster does not
 * hold is refused (upstream retries a live GET first, which the harness's store needs not).
 */
function lookUp(pod: JsonRecord, cluster: PluginCluster): Lookup {
  const name = stringAt(objectAt(pod, 'spec'), 'runtimeClassName');
  if (name === undefined) return { found: true, runtimeClass: undefined };
  const runtimeClass = cluster.list('node.k8s.io/v1', 'RuntimeClass', '').find((c: KubeObject) => c.metadata?.name === name);
  return runtimeClass ? { found: true, runtimeClass: runtimeClass as JsonRecord } : { found: false, name };
}

const notFoundCause = (name: string) => `pod rejected: RuntimeClass ${goQuote(name)} not found`;

/** A pod's `spec.overhead` (a ResourceList), empty when unset: upstream tests len(pod.Spec.Overhead) > 0. */
function podOverhead(pod: JsonRecord): JsonRecord {
  return objectAt(objectAt(pod, 'spec'), 'overhead');
}

/** Semantic.DeepEqual of two ResourceLists: the same names, each quantity equal by value (Quantity.Cmp). */
function resourceListsEqual(a: JsonRecord, b: JsonRecord): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    if (!(key in b)) return false;
    const x = quantityFromJson(a[key]);
    const y = quantityFromJson(b[key]);
    return x && y ? compareQuantities(x, y) === 0 : jsonEqual(a[key], b[key]);
  });
}

/** The RuntimeClass's `overhead.podFixed`, or undefined when it defines no `overhead`. */
function podFixed(runtimeClass: JsonRecord | undefined): JsonRecord | undefined {
  if (!runtimeClass || !isRecord(runtimeClass.overhead)) return undefined;
  return objectAt(runtimeClass.overhead, 'podFixed');
}

/** RuntimeClass acts on pod creates, in both phases. */
export function runtimeClassInvolvement(phase: AdmissionPhase): (attributes: PluginAttributes) => Involvement {
  return (attributes) => {
    if (!isRequestFor(attributes, 'CREATE', '', 'pods')) return notInvolved('handles only pod creates');
    return acts(
      phase === 'mutation'
        ? "a pod naming a RuntimeClass gets the class's overhead and node scheduling; an unknown class is refused"
        : "refuses an unknown RuntimeClass, and a spec.overhead other than its class's",
    );
  };
}
const runtimeClassMutationInvolvement = runtimeClassInvolvement('mutation');
const runtimeClassValidationInvolvement = runtimeClassInvolvement('validation');

/**
 * RuntimeClass (plugin/pkg/admission/runtimeclass) `Admit`, tenth in the mutation phase: a created pod
 * naming a RuntimeClass gets the class's `overhead.podFixed` as `spec.overhead` (refused when the pod
 * already carries a different one) and the class's `scheduling`: its nodeSelector merged into the
 * pod's (refused on a key with another value) and its tolerations merged with the pod's. A name the
 * cluster does not hold is refused. Reads the cluster's RuntimeClasses.
 */
export const runtimeClass = refusingPlugin('RuntimeClass', ({ attributes, object, cluster }) => {
  if (!cluster || !runtimeClassMutationInvolvement(attributes).involved) return {};
  const lookup = lookUp(object, cluster);
  if (!lookup.found) return { refusal: pluginForbidden(attributes, object, notFoundCause(lookup.name)) };
  const rc = lookup.runtimeClass;
  if (!rc) return {};
  const spec = { ...objectAt(object, 'spec') };

  // setOverhead
  const fixed = podFixed(rc);
  if (fixed !== undefined) {
    const current = podOverhead(object);
    if (Object.keys(current).length > 0 && !resourceListsEqual(fixed, current)) return { refusal: pluginForbidden(attributes, object, OVERHEAD_MISMATCH) };
    if (Object.keys(fixed).length > 0) spec.overhead = fixed;
    else delete spec.overhead;
  }

  // setScheduling
  if (isRecord(rc.scheduling)) {
    const runtimeSelector = objectAt(rc.scheduling, 'nodeSelector');
    if (isRecord(spec.nodeSelector)) {
      const podSelector = spec.nodeSelector;
      // Upstream walks a Go map (a random order) and reports the first conflict it meets; here the keys go in order.
      for (const key of Object.keys(runtimeSelector).sort()) {
        const podValue = podSelector[key];
        if (podValue !== undefined && podValue !== runtimeSelector[key]) {
          const cause = `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${String(runtimeSelector[key])}; pod.spec.nodeSelector[${key}] = ${String(podValue)}`;
          return { refusal: pluginForbidden(attributes, object, cause) };
        }
      }
      spec.nodeSelector = { ...podSelector, ...runtimeSelector };
    } else if (Object.keys(runtimeSelector).length > 0) {
      spec.nodeSelector = runtimeSelector;
    }
    const merged = mergeTolerations(listAt(spec, 'tolerations'), listAt(rc.scheduling, 'tolerations'));
    if (merged.length > 0) spec.tolerations = merged;
  }

  const changed = { ...object, spec };
  return jsonEqual(changed, object) ? {} : { object: changed };
});

/**
 * RuntimeClass `Validate`, sixth in the validation phase (after PersistentVolumeClaimResize), on the
 * pod as the webhooks left it: a RuntimeClass name the cluster does not hold is refused; a pod carrying
 * `spec.overhead` must carry exactly its RuntimeClass's `overhead.podFixed`, and may not carry one
 * without a RuntimeClass that defines an overhead. Pod creates only. Reads the cluster's RuntimeClasses.
 */
export function runtimeClassValidate(attributes: AdmissionAttributes, cluster: PluginCluster): Status | undefined {
  if (!runtimeClassValidationInvolvement(attributes).involved || !isRecord(attributes.object)) return undefined;
  const pod = attributes.object as JsonRecord;
  const lookup = lookUp(pod, cluster);
  if (!lookup.found) return pluginForbidden(attributes, pod, notFoundCause(lookup.name));
  const overhead = podOverhead(pod);
  if (Object.keys(overhead).length === 0) return undefined;
  const fixed = podFixed(lookup.runtimeClass);
  if (fixed === undefined) return pluginForbidden(attributes, pod, OVERHEAD_WITHOUT_CLASS);
  return resourceListsEqual(fixed, overhead) ? undefined : pluginForbidden(attributes, pod, OVERHEAD_MISMATCH);
}
