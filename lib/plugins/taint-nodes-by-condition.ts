import { listAt, objectAt } from '../kube/record';
import { acts, notInvolved, type Involvement } from './involved';
import type { MutationPlugin, PluginAttributes } from './plugin';
import { isRequestFor } from './refusing-plugin';

/** TaintNodesByCondition acts on node creates. */
export function taintNodesByConditionInvolvement(attributes: PluginAttributes): Involvement {
  if (!isRequestFor(attributes, 'CREATE', '', 'nodes')) return notInvolved('handles only node creates');
  return acts('taints the node node.kubernetes.io/not-ready:NoSchedule until its kubelet reports');
}

/**
 * TaintNodesByCondition (plugin/pkg/admission/nodetaint): a created node is tainted not-ready (NoSchedule)
 * until its kubelet reports, unless it already is (fixtures/apiserver-captures/nodes-create.json).
 */
export const taintNodesByCondition: MutationPlugin = {
  name: 'TaintNodesByCondition',
  admit({ attributes, object }) {
    if (!taintNodesByConditionInvolvement(attributes).involved) return undefined;
    const spec = objectAt(object, 'spec');
    const taints = listAt(spec, 'taints');
    // Taint.MatchTaint: the same key and effect.
    if (taints.some((t) => t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule')) return undefined;
    return { ...object, spec: { ...spec, taints: [...taints, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] } };
  },
};
