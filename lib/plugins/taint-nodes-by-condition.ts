import { listAt, objectAt } from '../kube/record';
import type { MutationPlugin } from './plugin';

/**
 * TaintNodesByCondition (plugin/pkg/admission/nodetaint): a created node is tainted not-ready (NoSchedule)
 * until its kubelet reports, unless it already is (fixtures/apiserver-captures/nodes-create.json).
 */
export const taintNodesByCondition: MutationPlugin = {
  name: 'TaintNodesByCondition',
  admit({ attributes, object }) {
    const { operation, subResource, resource } = attributes;
    if (operation !== 'CREATE' || subResource !== '' || resource.group !== '' || resource.resource !== 'nodes') return undefined;
    const spec = objectAt(object, 'spec');
    const taints = listAt(spec, 'taints');
    // Taint.MatchTaint: the same key and effect.
    if (taints.some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule')) return undefined;
    return { ...object, spec: { ...spec, taints: [...taints, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] } };
  },
};
