import type { Status } from '../../kube/admission';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { forbidden } from '../../kube/status';
import { acts, notInvolved, type Involvement } from '../involved';
import { isCoreCreateOrUpdate, type PluginAttributes } from '../plugin';

// Hand-written after plugin/pkg/admission/antiaffinity/admission.go.
const HOSTNAME = 'kubernetes.io/hostname';

/** LimitPodHardAntiAffinityTopology acts on pod creates and updates. */
export function limitPodHardAntiAffinityTopologyInvolvement(attributes: PluginAttributes): Involvement {
  if (!isCoreCreateOrUpdate(attributes, 'pods')) return notInvolved('handles only pod creates and updates');
  return acts('refuses required pod anti-affinity with a topologyKey other than kubernetes.io/hostname');
}

/**
 * LimitPodHardAntiAffinityTopology (off by default), first of the validating plugins: a pod create or
 * update whose required pod anti-affinity spreads by any topology key but kubernetes.io/hostname is
 * refused (403, named after the pod's own name); preferred terms and pod affinity pass. It never mutates.
 */
export function limitPodHardAntiAffinityTopologyValidate(attributes: PluginAttributes, object: JsonRecord): Status | undefined {
  if (!limitPodHardAntiAffinityTopologyInvolvement(attributes).involved) return undefined;
  const terms = listAt(objectAt(objectAt(objectAt(object, 'spec'), 'affinity'), 'podAntiAffinity'), 'requiredDuringSchedulingIgnoredDuringExecution');
  const wrong = terms.find((term) => (stringAt(term, 'topologyKey') ?? '') !== HOSTNAME);
  if (!wrong) return undefined;
  const name = stringAt(objectAt(object, 'metadata'), 'name') ?? '';
  return forbidden(
    { group: '', resource: 'pods' },
    name,
    `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${stringAt(wrong, 'topologyKey') ?? ''} but only key ${HOSTNAME} is allowed`,
  );
}
