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
    [
      'containers by name',
      { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } },
      ['spec', 'containers'],
      [
        { name: 'sidecar', image: 'envoy' },
        { name: 'app', image: 'nginx:1.27' },
      ],
    ],
    [
      'topologySpreadConstraints by topologyKey',
      {
        spec: {
          topologySpreadConstraints: [
            { topologyKey: 'zone', maxSkew: 2 },
            { topologyKey: 'host', maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' },
          ],
        },
      },
      ['spec', 'topologySpreadConstraints'],
      [
        { topologyKey: 'zone', maxSkew: 2, whenUnsatisfiable: 'DoNotSchedule' },
        { topologyKey: 'host', maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway' },
      ],
    ],
    ['schedulingGates by name', { spec: { schedulingGates: [{ name: 'review' }] } }, ['spec', 'schedulingGates'], [{ name: 'review' }, { name: 'quota' }]],
    [
      'resourceClaims by name',
      { spec: { resourceClaims: [{ name: 'gpu', resourceClaimName: 'other' }] } },
      ['spec', 'resourceClaims'],
      [{ name: 'gpu', resourceClaimName: 'other' }],
    ],
    [
      'status conditions by type',
      { status: { conditions: [{ type: 'PodScheduled', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: 'False' },
      ],
    ],
    [
      'tolerations, which have no merge key, whole',
      { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
      ['spec', 'tolerations'],
      [{ key: 'b', operator: 'Exists' }],
    ],
  ])('merges %s', (_name, patch, at, expected) => {
    const merged = strategicMerge(pod, patch as JsonObject, podKind);
    const [parent, list] = at as [string, string];
    expect((merged[parent] as JsonObject)[list]).toEqual(expected);
  });
});

// Every built-in kind merges by its own struct tags (k8s.io/api core/v1 and apps/v1 types.go:
// NodeStatus.Conditions and .Addresses, NamespaceStatus.Conditions, ServiceAccount.Secrets,
// PodStatus.PodIPs and .HostIPs, DeploymentStatus.Conditions, batch/v1 JobStatus.Conditions and
// admissionregistration/v1 webhook configurations' Webhooks and MatchConditions, autoscaling/v2
// HorizontalPodAutoscalerStatus, policy/v1 PodDisruptionBudgetStatus and networking/v1 ServiceCIDRStatus
// Conditions carry `patchStrategy:"merge"` with these patchMergeKeys (items the patch adds go first, as
// strategicpatch's normalizeElementOrder and mergeSortedSlice order them);
// NodeSpec.PodCIDRs `patchStrategy:"merge"` on strings, a set). The harness merged only the pod family
// before and replaced these lists whole.
describe('strategic merge patch of every built-in kind', () => {
  it.each([
    [
      'a Node',
      { apiVersion: 'v1', kind: 'Node', status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      { status: { conditions: [{ type: 'MemoryPressure', status: 'False' }] } },
      ['status', 'conditions'],
      [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: 'True' },
      ],
    ],
    [
      'a Node',
      { apiVersion: 'v1', kind: 'Node', status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] } },
      {
        status: {
          addresses: [
            { type: 'Hostname', address: 'n1' },
            { type: 'InternalIP', address: '10.0.0.2' },
          ],
        },
      },
      ['status', 'addresses'],
      [
        { type: 'Hostname', address: 'n1' },
        { type: 'InternalIP', address: '10.0.0.2' },
      ],
    ],
    [
      'a Node',
      { apiVersion: 'v1', kind: 'Node', spec: { podCIDRs: ['10.1.0.0/24'] } },
      { spec: { podCIDRs: ['10.1.0.0/24', 'fd00::/64'] } },
      ['spec', 'podCIDRs'],
      ['10.1.0.0/24', 'fd00::/64'],
    ],
    [
      'a Namespace',
      { apiVersion: 'v1', kind: 'Namespace', status: { conditions: [{ type: 'A', status: 'True' }] } },
      { status: { conditions: [{ type: 'B', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'B', status: 'True' },
        { type: 'A', status: 'True' },
      ],
    ],
    [
      'a Pod',
      { apiVersion: 'v1', kind: 'Pod', status: { podIPs: [{ ip: '10.0.0.5' }] } },
      { status: { podIPs: [{ ip: 'fd00::5' }] } },
      ['status', 'podIPs'],
      [{ ip: 'fd00::5' }, { ip: '10.0.0.5' }],
    ],
    [
      'a Pod',
      { apiVersion: 'v1', kind: 'Pod', status: { hostIPs: [{ ip: '10.0.0.1' }] } },
      { status: { hostIPs: [{ ip: 'fd00::1' }] } },
      ['status', 'hostIPs'],
      [{ ip: 'fd00::1' }, { ip: '10.0.0.1' }],
    ],
    [
      'a Job',
      { apiVersion: 'batch/v1', kind: 'Job', status: { conditions: [{ type: 'Suspended', status: 'True' }] } },
      { status: { conditions: [{ type: 'Complete', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'Complete', status: 'True' },
        { type: 'Suspended', status: 'True' },
      ],
    ],
    [
      'a MutatingWebhookConfiguration',
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', webhooks: [{ name: 'a.example.com', sideEffects: 'None' }] },
      { webhooks: [{ name: 'b.example.com' }] },
      ['webhooks'],
      [{ name: 'b.example.com' }, { name: 'a.example.com', sideEffects: 'None' }],
    ],
    [
      'a HorizontalPodAutoscaler',
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', status: { conditions: [{ type: 'AbleToScale', status: 'True' }] } },
      { status: { conditions: [{ type: 'ScalingActive', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'ScalingActive', status: 'True' },
        { type: 'AbleToScale', status: 'True' },
      ],
    ],
    [
      'a PodDisruptionBudget',
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', status: { conditions: [{ type: 'DisruptionAllowed', status: 'True' }] } },
      { status: { conditions: [{ type: 'Other', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'Other', status: 'True' },
        { type: 'DisruptionAllowed', status: 'True' },
      ],
    ],
    [
      'a ServiceCIDR',
      { apiVersion: 'networking.k8s.io/v1', kind: 'ServiceCIDR', status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      { status: { conditions: [{ type: 'Other', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'Other', status: 'True' },
        { type: 'Ready', status: 'True' },
      ],
    ],
    [
      'a ValidatingWebhookConfiguration',
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        webhooks: [{ name: 'a.example.com', matchConditions: [{ name: 'one', expression: 'true' }] }],
      },
      { webhooks: [{ name: 'a.example.com', matchConditions: [{ name: 'two', expression: 'false' }] }] },
      ['webhooks'],
      [
        {
          name: 'a.example.com',
          matchConditions: [
            { name: 'two', expression: 'false' },
            { name: 'one', expression: 'true' },
          ],
        },
      ],
    ],
    [
      'a Deployment',
      { apiVersion: 'apps/v1', kind: 'Deployment', status: { conditions: [{ type: 'Available', status: 'True' }] } },
      { status: { conditions: [{ type: 'Progressing', status: 'True' }] } },
      ['status', 'conditions'],
      [
        { type: 'Progressing', status: 'True' },
        { type: 'Available', status: 'True' },
      ],
    ],
  ])('merges %s by its patch merge key', (_name, object, patch, at, expected) => {
    const [group] = (object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['']) as [string];
    const merged = strategicMerge(object as JsonObject, patch as JsonObject, { group, kind: object.kind });
    const [parent, list] = at as [string, string?];
    expect(list === undefined ? merged[parent] : (merged[parent] as JsonObject)[list]).toEqual(expected);
  });

  it('merges a ServiceAccount’s secrets by name', () => {
    const account = { apiVersion: 'v1', kind: 'ServiceAccount', secrets: [{ name: 'token-a' }] };
    expect(strategicMerge(account, { secrets: [{ name: 'token-b' }] }, { group: '', kind: 'ServiceAccount' }).secrets).toEqual([
      { name: 'token-b' },
      { name: 'token-a' },
    ]);
  });

  it('merges the pod template of a CronJob’s job template, and reports an item without its merge key as kube does', () => {
    const cronJob = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'a', image: 'x' }] } } } } },
    };
    const patch = { spec: { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'b', image: 'y' }] } } } } } };
    const merged = strategicMerge(cronJob, patch, { group: 'batch', kind: 'CronJob' }) as typeof cronJob;
    expect(merged.spec.jobTemplate.spec.template.spec.containers).toEqual([
      { name: 'b', image: 'y' },
      { name: 'a', image: 'x' },
    ]);
    expect(() =>
      strategicMerge(
        cronJob,
        { spec: { jobTemplate: { spec: { template: { spec: { containers: [{ image: 'y' }] } } } } } },
        { group: 'batch', kind: 'CronJob' },
      ),
    ).toThrow('map: map[image:y] does not contain declared merge key: name');
  });

  it('keeps lists without a patch strategy atomic (a Node’s taints, a Job’s pod failure rules)', () => {
    const node = { apiVersion: 'v1', kind: 'Node', spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } };
    expect((strategicMerge(node, { spec: { taints: [{ key: 'b', effect: 'NoSchedule' }] } }, { group: '', kind: 'Node' }).spec as JsonObject).taints).toEqual([
      { key: 'b', effect: 'NoSchedule' },
    ]);
  });
});
