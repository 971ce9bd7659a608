import type { Status } from '../../kube/admission';
import { isRecord } from '../../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { forbidden, internalError, unknownError } from '../../kube/status';
import { acts, notInvolved, type AdmissionPhase, type Involvement } from '../involved';
import type { PluginCluster, PluginAttributes } from '../plugin';
import { isRequestFor, refusingPlugin } from '../refusing-plugin';
import type { PluginConfigurations } from './admission-configuration';

// Hand-written after plugin/pkg/admission/podnodeselector/admission.go.
const NODE_SELECTOR_ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';
const CLUSTER_DEFAULT = 'clusterDefaultNodeSelector';

type Labels = Record<string, string>;

/** labels.ConvertSelectorToLabelsMap: `k=v,k2=v2` into a map; anything else is an error (its text). */
function selectorLabels(selector: string): Labels | string {
  const labels: Labels = {};
  if (selector === '') return labels;
  for (const term of selector.split(',')) {
    const parts = term.split('=');
    // Go prints the split as a []string: [a b c].
    if (parts.length !== 2) return `invalid selector: [${parts.join(' ')}]`;
    labels[parts[0]!.trim()] = parts[1]!.trim();
  }
  return labels;
}

/** labels.Conflicts: a key both maps hold with different values. */
function conflicts(a: Labels, b: Labels): boolean {
  return Object.entries(a).some(([key, value]) => key in b && b[key] !== value);
}

/** labels.Merge, the second winning; keys in Go's (sorted) JSON order. */
function merge(a: Labels, b: Labels): Labels {
  const all = { ...a, ...b };
  return Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((key) => [key, all[key]!]),
  );
}

/** isSubset: every label of the pod's selector is in the whitelist with its value (an empty whitelist allows all). */
function isSubset(subset: Labels, superset: Labels): boolean {
  if (Object.keys(superset).length === 0) return true;
  return Object.entries(subset).every(([key, value]) => superset[key] === value);
}

/** PodNodeSelector acts on pod creates, in both phases. */
export function podNodeSelectorInvolvement(phase: AdmissionPhase): (attributes: PluginAttributes) => Involvement {
  return (attributes) => {
    if (!isRequestFor(attributes, 'CREATE', '', 'pods')) return notInvolved('handles only pod creates');
    return acts(
      phase === 'mutation'
        ? "merges the namespace's node selector (else the cluster default) into spec.nodeSelector; a conflict is refused"
        : "refuses a nodeSelector conflicting with the namespace's or outside its whitelist",
    );
  };
}
// Both phases act on the same requests; only the phrase differs.
const handles = podNodeSelectorInvolvement('mutation');
const ignores = (attributes: PluginAttributes): boolean => !handles(attributes).involved;

/** getNamespaceNodeSelectorMap: the namespace's annotation, else the configuration's clusterDefaultNodeSelector. */
function namespaceSelector(
  namespace: string,
  cluster: PluginCluster | undefined,
  configuration: PluginConfigurations | undefined,
): { labels: Labels } | { status: Status } {
  const stored = cluster?.get('v1', 'Namespace', '', namespace);
  if (cluster && !stored) return { status: internalError(`namespace ${namespace} does not exist`) };
  const annotations = stored?.metadata?.annotations ?? {};
  const own = annotations[NODE_SELECTOR_ANNOTATION];
  const parsed = selectorLabels(own ?? configuration?.podNodeSelector?.[CLUSTER_DEFAULT] ?? '');
  return typeof parsed === 'string' ? { status: unknownError(parsed) } : { labels: parsed };
}

const nodeSelectorOf = (object: JsonRecord): Labels => {
  const selector = objectAt(objectAt(object, 'spec'), 'nodeSelector');
  return Object.fromEntries(Object.entries(selector).filter(([, v]) => typeof v === 'string')) as Labels;
};

/** Validate: no conflict with the namespace's selector, and within the namespace's whitelist of the configuration. */
export function podNodeSelectorValidate(
  attributes: PluginAttributes,
  object: JsonRecord,
  cluster: PluginCluster | undefined,
  configuration: PluginConfigurations | undefined,
): Status | undefined {
  if (ignores(attributes) || !isRecord(object)) return undefined;
  const resource = { group: '', resource: 'pods' };
  const name = stringAt(objectAt(object, 'metadata'), 'name') ?? '';
  const found = namespaceSelector(attributes.namespace ?? '', cluster, configuration);
  if ('status' in found) return found.status;
  const podLabels = nodeSelectorOf(object);
  if (conflicts(found.labels, podLabels)) return forbidden(resource, name, 'pod node label selector conflicts with its namespace node label selector');
  const whitelist = selectorLabels(configuration?.podNodeSelector?.[attributes.namespace ?? ''] ?? '');
  if (typeof whitelist === 'string') return unknownError(whitelist);
  if (!isSubset(podLabels, whitelist)) return forbidden(resource, name, 'pod node label selector labels conflict with its namespace whitelist');
  return undefined;
}

/**
 * PodNodeSelector (off by default), after AlwaysPullImages in the mutation phase: a created pod's
 * nodeSelector gets its namespace's `scheduler.alpha.kubernetes.io/node-selector` (else the
 * configuration's clusterDefaultNodeSelector), the pod's own value winning; a conflicting value is
 * refused (403), and so is a selector outside the namespace's whitelist in the configuration.
 */
export const podNodeSelector = refusingPlugin('PodNodeSelector', ({ attributes, object, cluster, configuration }) => {
  if (ignores(attributes)) return {};
  const found = namespaceSelector(attributes.namespace ?? '', cluster, configuration);
  if ('status' in found) return { refusal: found.status };
  const podLabels = nodeSelectorOf(object);
  if (conflicts(found.labels, podLabels))
    return {
      refusal: forbidden(
        { group: '', resource: 'pods' },
        stringAt(objectAt(object, 'metadata'), 'name') ?? '',
        'pod node label selector conflicts with its namespace node label selector',
      ),
    };
  const merged = merge(found.labels, podLabels);
  const spec = objectAt(object, 'spec');
  const changed =
    Object.keys(merged).length > 0 && JSON.stringify(merged) !== JSON.stringify(spec.nodeSelector ?? {})
      ? { ...object, spec: { ...spec, nodeSelector: merged } }
      : object;
  const refusal = podNodeSelectorValidate(attributes, changed, cluster, configuration);
  if (refusal) return { refusal };
  return changed === object ? {} : { object: changed };
});
