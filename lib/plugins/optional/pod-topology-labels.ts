import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { isRecord } from '../../kube/json';
import { acts, notInvolved, type Involvement } from '../involved';
import type { MutationPlugin, PluginAttributes, PluginCluster } from '../plugin';

// Hand-written after plugin/pkg/admission/podtopologylabels/admission.go (feature gate
// PodTopologyLabelsAdmission, on by default in v1.36).
const TOPOLOGY_LABELS = ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region'];

/** topologyLabelsForNodeName: the node's zone and region labels; none for a node that does not exist. */
function nodeTopology(cluster: PluginCluster | undefined, nodeName: string): Record<string, string> {
  const labels = cluster?.get('v1', 'Node', '', nodeName)?.metadata?.labels ?? {};
  return Object.fromEntries(TOPOLOGY_LABELS.filter((key) => typeof labels[key] === 'string').map((key) => [key, labels[key]!]));
}

/** The object with the labels copied in, overwriting its own values; undefined when nothing changes. */
function withLabels(object: JsonRecord, copied: Record<string, string>): JsonRecord | undefined {
  const metadata = objectAt(object, 'metadata');
  const labels = objectAt(metadata, 'labels');
  if (Object.entries(copied).every(([key, value]) => labels[key] === value)) return undefined;
  const merged = { ...labels, ...copied };
  // Go writes a map's keys sorted.
  const sorted = Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((key) => [key, merged[key]]),
  );
  return { ...object, metadata: { ...metadata, labels: sorted } };
}

/** PodTopologyLabels acts on pods/binding creates, and on pod creates that already name a node. */
export function podTopologyLabelsInvolvement(attributes: PluginAttributes & { object?: unknown }): Involvement {
  if (attributes.operation !== 'CREATE' || attributes.resource.group !== '' || attributes.resource.resource !== 'pods')
    return notInvolved('handles only pods/binding and pod creates');
  if (attributes.subResource === 'binding') return acts("copies the node's topology.kubernetes.io/zone and region labels onto the Binding (and so the pod)");
  if (attributes.subResource !== '') return notInvolved(`pods/${attributes.subResource} is not labelled`);
  if (podNodeName(attributes.object) === '') return notInvolved('the pod names no node yet (the Binding gets the labels)');
  return acts("copies the node's topology.kubernetes.io/zone and region labels onto the pod");
}

const podNodeName = (object: unknown): string => (isRecord(object) ? (stringAt(objectAt(object as JsonRecord, 'spec'), 'nodeName') ?? '') : '');

/**
 * PodTopologyLabels (on by default), last of the built-in mutating plugins: a Binding of a pod to a
 * node (CREATE of pods/binding) gets the node's `topology.kubernetes.io/zone` and `region` labels —
 * the binding registry copies a Binding's labels onto the pod — and so does a pod created with
 * spec.nodeName set. The node's value overwrites the object's; other labels stay; no other label of
 * the node is copied.
 */
export const podTopologyLabels: MutationPlugin = {
  name: 'PodTopologyLabels',
  admit({ attributes, object, cluster }) {
    if (!podTopologyLabelsInvolvement({ ...attributes, object }).involved) return undefined;
    if (attributes.subResource === 'binding') {
      const target = objectAt(object, 'target');
      if (stringAt(target, 'kind') !== 'Node') return undefined;
      return withLabels(object, nodeTopology(cluster, stringAt(target, 'name') ?? ''));
    }
    return withLabels(object, nodeTopology(cluster, podNodeName(object)));
  },
};
