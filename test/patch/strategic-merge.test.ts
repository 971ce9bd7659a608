import { strategicMerge } from '../../lib/patch/strategic-merge';
import type { JsonObject } from '../../lib/kube/json';

// The lists core/v1 declares `patchStrategy:"merge"` on merge item by item on their patchMergeKey;
// a list without one is replaced whole. An item the patch adds goes first, as strategicpatch's
// normalizeElementOrder puts it (pods-status, recorded on a real kube-apiserver v1.36.2: a condition
// patched into pods/status came before the Ready condition the pod had).
describe('strategic merge patch of a pod', () => {
  const pod: JsonObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' }],
      schedulingGates: [{ name: 'quota' }],
      resourceClaims: [{ name: 'gpu', resourceClaimName: 'gpu-claim' }],
      tolerations: [{ key: 'a', operator: 'Exists' }],
    },
    status: { conditions: [{ type: 'Ready', status: 'False' }] },
  };
  const podKind = { group: '', kind: 'Pod' };

  it.each([
    ['containers by name', { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } }, ['spec', 'containers'], [{ name: 'sidecar', image: 'envoy' }, { name: 'app', image: 'nginx:1.27' }]],
    ['topologySpreadConstraints by topologyKey', { spec: { topologySpreadConstraints: [{ topologyKey: 'zone', maxSkew: 2 }, { topologyKey: 'host', maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' }] } }, ['spec', 'topologySpreadConstraints'], [{ topologyKey: 'zone', maxSkew: 2, whenUnsatisfiable: 'DoNotSchedule' }, { topologyKey: 'host', maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' }]],
    ['schedulingGates by name', { spec: { schedulingGates: [{ name: 'review' }] } }, ['spec', 'schedulingGates'], [{ name: 'review' }, { name: 'quota' }]],
    ['resourceClaims by name', { spec: { resourceClaims: [{ name: 'gpu', resourceClaimName: 'other' }] } }, ['spec', 'resourceClaims'], [{ name: 'gpu', resourceClaimName: 'other' }]],
    ['status conditions by type', { status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } }, ['status', 'conditions'], [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: 'False' }]],
    ['tolerations, which have no merge key, whole', { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } }, ['spec', 'tolerations'], [{ key: 'b', operator: 'Exists' }]],
  ])('merges %s', (_name, patch, at, expected) => {
    const merged = strategicMerge(pod, patch as JsonObject, podKind);
    const [parent, list] = at as [string, string];
    expect((merged[parent] as JsonObject)[list]).toEqual(expected);
  });
});
