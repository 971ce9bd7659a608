import type { Status } from '../../kube/admission';
import { isRecord } from '../../kube/json';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { unknownError } from '../../kube/status';
import { acts, notInvolved, type AdmissionPhase, type Involvement } from '../involved';
import { isCoreCreateOrUpdate, type PluginAttributes, type PluginCluster } from '../plugin';
import { refusingPlugin } from '../refusing-plugin';
import type { PluginConfigurations } from './admission-configuration';
import { mergeTolerations, verifyAgainstWhitelist } from '../tolerations';

// Hand-written after plugin/pkg/admission/podtolerationrestriction/admission.go.
const DEFAULT_TOLERATIONS = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const WHITELIST = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const MEMORY_PRESSURE = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

/** PodTolerationRestriction acts on pods themselves (no subresource), creates and updates, in both phases. */
export function podTolerationRestrictionInvolvement(phase: AdmissionPhase): (attributes: PluginAttributes) => Involvement {
  return (attributes) => {
    if (!isCoreCreateOrUpdate(attributes, 'pods')) return notInvolved('handles only pod creates and updates');
    if (phase === 'validation') return acts("refuses tolerations outside the namespace's (else the cluster's) whitelist (500)");
    return acts(
      attributes.operation === 'CREATE'
        ? "merges the namespace's default tolerations (else the cluster default) and memory-pressure unless BestEffort; checks the whitelist"
        : 'adds the memory-pressure toleration unless BestEffort; checks the whitelist',
    );
  };
}
// Both phases act on the same requests; only the phrase differs.
const handles = podTolerationRestrictionInvolvement('validation');
const ignores = (attributes: PluginAttributes): boolean => !handles(attributes).involved;

/**
 * extractNSTolerations: a namespace annotation's tolerations; undefined when the namespace does not
 * set it (the configuration's then apply), [] when set empty. Unparsable JSON is the plugin's error.
 */
function namespaceTolerations(namespace: string, key: string, cluster: PluginCluster | undefined): JsonRecord[] | undefined | { error: string } {
  const value = cluster?.get('v1', 'Namespace', '', namespace)?.metadata?.annotations?.[key];
  if (value === undefined) return undefined;
  if (value === '') return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    if (parsed === null) return [];
    if (Array.isArray(parsed) && parsed.every(isRecord)) return parsed as JsonRecord[];
  } catch {
    // Reported below, as the plugin returns json.Unmarshal's error.
  }
  return { error: `json: cannot unmarshal annotation ${key} of namespace ${namespace} into []v1.Toleration` };
}

// The resources qos.GetPodQOS counts: a pod that requests or limits neither is BestEffort.
const QOS_RESOURCES = ['cpu', 'memory'];
function isBestEffort(object: JsonRecord): boolean {
  const spec = objectAt(object, 'spec');
  const qosClass = stringAt(objectAt(object, 'status'), 'qosClass');
  if (qosClass) return qosClass === 'BestEffort';
  const sets = [objectAt(spec, 'resources'), ...['initContainers', 'containers'].flatMap((list) => listAt(spec, list).map((c) => objectAt(c, 'resources')))];
  return !sets.some((resources) => ['requests', 'limits'].some((kind) => QOS_RESOURCES.some((name) => name in objectAt(resources, kind))));
}

/** Validate: the pod's tolerations within the namespace's whitelist, else the configuration's; a plain error, so a 500. */
export function podTolerationRestrictionValidate(
  attributes: PluginAttributes,
  object: JsonRecord,
  cluster: PluginCluster | undefined,
  configuration: PluginConfigurations | undefined,
): Status | undefined {
  if (ignores(attributes)) return undefined;
  const tolerations = listAt(objectAt(object, 'spec'), 'tolerations');
  if (tolerations.length === 0) return undefined;
  const own = namespaceTolerations(attributes.namespace ?? '', WHITELIST, cluster);
  if (own && 'error' in own) return unknownError(own.error);
  const whitelist = own ?? configuration?.podTolerationRestriction?.whitelist ?? [];
  if (verifyAgainstWhitelist(tolerations, whitelist)) return undefined;
  return unknownError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${own ? 'namespace' : 'cluster'} whitelist`);
}

/**
 * PodTolerationRestriction (off by default), after DefaultTolerationSeconds in the mutation phase: a
 * created pod gets its namespace's default tolerations (else the configuration's default), a pod
 * that is not BestEffort also tolerates memory pressure, merged after its own; then the tolerations
 * must fit the whitelist, else a bare 500 (the plugin returns a plain error).
 */
export const podTolerationRestriction = refusingPlugin('PodTolerationRestriction', ({ attributes, object, cluster, configuration }) => {
  if (ignores(attributes)) return {};
  const extra: JsonRecord[] = [];
  if (attributes.operation === 'CREATE') {
    const own = namespaceTolerations(attributes.namespace ?? '', DEFAULT_TOLERATIONS, cluster);
    if (own && 'error' in own) return { refusal: unknownError(own.error) };
    extra.push(...(own ?? configuration?.podTolerationRestriction?.default ?? []));
  }
  if (!isBestEffort(object)) extra.push(MEMORY_PRESSURE);
  const spec = objectAt(object, 'spec');
  const current = listAt(spec, 'tolerations');
  const merged = extra.length > 0 ? mergeTolerations(current, extra) : current;
  const changed = JSON.stringify(merged) === JSON.stringify(current) ? object : { ...object, spec: { ...spec, tolerations: merged } };
  const refusal = podTolerationRestrictionValidate(attributes, changed, cluster, configuration);
  if (refusal) return { refusal };
  return changed === object ? {} : { object: changed };
});
