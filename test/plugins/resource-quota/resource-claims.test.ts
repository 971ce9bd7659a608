// ResourceQuota admission of resource claims (pkg/quota/v1/evaluator/core/resource_claims.go, v1.36):
// a claim counts as count/resourceclaims.resource.k8s.io and as the devices it may take per device class;
// with DRAExtendedResource (beta, on by default in v1.36) the same devices count as the extended resources
// the cluster's DeviceClasses answer to, less what the pod a scheduler-made claim serves already pays.
import { quotaAdmit, type QuotaAttributes } from '../../../lib/plugins/resource-quota';
import type { KubeObject } from '../../../lib/kube/admission';
import type { JsonRecord } from '../../../lib/kube/record';
import type { PluginCluster } from '../../../lib/plugins/plugin';

const GPU = 'gpu.deviceclass.resource.k8s.io/devices';
const TPU = 'tpu.deviceclass.resource.k8s.io/devices';
const COUNT = 'count/resourceclaims.resource.k8s.io';
const IMPLICIT_GPU = 'requests.deviceclass.resource.kubernetes.io/gpu';

function quota(name: string, hard: Record<string, string>, used: Record<string, string>, spec: JsonRecord = {}): JsonRecord {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard, ...spec }, status: { hard, used } };
}

function claim(requests: JsonRecord[], apiVersion = 'resource.k8s.io/v1', metadata: JsonRecord = {}): JsonRecord {
  return { apiVersion, kind: 'ResourceClaim', metadata: { name: 'gpu', namespace: 'ns', ...metadata }, spec: { devices: { requests } } };
}

function create(object: JsonRecord, extra: Partial<QuotaAttributes> = {}): QuotaAttributes {
  return {
    operation: 'CREATE',
    resource: { group: 'resource.k8s.io', resource: 'resourceclaims' },
    name: String((object.metadata as JsonRecord).name),
    namespace: 'ns',
    object,
    oldObject: null,
    ...extra,
  };
}

/** A cluster holding these objects, as the plugins read it. */
function clusterOf(objects: JsonRecord[]): PluginCluster {
  const matches = (o: JsonRecord, apiVersion: string, kind: string, namespace: string) =>
    o.apiVersion === apiVersion && o.kind === kind && ((o.metadata as JsonRecord).namespace ?? '') === namespace;
  return {
    list: (apiVersion, kind, namespace) => objects.filter((o) => matches(o, apiVersion, kind, namespace)) as KubeObject[],
    get: (apiVersion, kind, namespace, name) =>
      objects.find((o) => matches(o, apiVersion, kind, namespace) && (o.metadata as JsonRecord).name === name) as KubeObject | undefined,
  };
}

const deviceClass = (name: string, extendedResourceName?: string, creationTimestamp = '2026-01-01T00:00:00Z'): JsonRecord => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name, creationTimestamp },
  spec: extendedResourceName ? { extendedResourceName } : {},
});

const refusal = (result: ReturnType<typeof quotaAdmit>) => (result.ok ? undefined : result.message);
/** The `status.used` the request leaves on the only quota. */
const usedAfter = (result: ReturnType<typeof quotaAdmit>) => (result.ok ? result.updatedUsage[0]?.used : result.message);

describe('quotaAdmit: resource claims, devices per device class', () => {
  const devices = quota('devices', { [GPU]: '0' }, { [GPU]: '0' });
  const plenty = quota('plenty', { [GPU]: '100', [TPU]: '100', [COUNT]: '10' }, { [GPU]: '0', [TPU]: '0', [COUNT]: '0' });

  it('charges an exact request one device when it states no count (the defaults: ExactCount, 1)', () => {
    expect(refusal(quotaAdmit(create(claim([{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }])), [devices]))).toBe(
      'resourceclaims.resource.k8s.io "gpu" is forbidden: exceeded quota: devices, requested: gpu.deviceclass.resource.k8s.io/devices=1, used: gpu.deviceclass.resource.k8s.io/devices=0, limited: gpu.deviceclass.resource.k8s.io/devices=0',
    );
  });

  it('charges an exact count, requests adding up, and counts the claim', () => {
    const requests = [
      { name: 'a', exactly: { deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 3 } },
      { name: 'b', exactly: { deviceClassName: 'gpu', count: 2 } },
      { name: 'c', exactly: { deviceClassName: 'tpu' } },
    ];
    expect(usedAfter(quotaAdmit(create(claim(requests)), [plenty]))).toEqual({ [COUNT]: '1', [GPU]: '5', [TPU]: '1' });
  });

  it('charges allocationMode All the most devices one allocation holds (32)', () => {
    const some = quota('some', { [GPU]: '31' }, { [GPU]: '0' });
    expect(refusal(quotaAdmit(create(claim([{ name: 'all', exactly: { deviceClassName: 'gpu', allocationMode: 'All' } }])), [some]))).toBe(
      'resourceclaims.resource.k8s.io "gpu" is forbidden: exceeded quota: some, requested: gpu.deviceclass.resource.k8s.io/devices=32, used: gpu.deviceclass.resource.k8s.io/devices=0, limited: gpu.deviceclass.resource.k8s.io/devices=31',
    );
  });

  it('charges a firstAvailable request its largest alternative per class', () => {
    const request = {
      name: 'flex',
      firstAvailable: [
        { name: 'two', deviceClassName: 'gpu', count: 2 },
        { name: 'four', deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 4 },
        { name: 'one', deviceClassName: 'gpu' },
        { name: 'every-tpu', deviceClassName: 'tpu', allocationMode: 'All' },
      ],
    };
    const exact = { name: 'exact', exactly: { deviceClassName: 'gpu' } };
    expect(usedAfter(quotaAdmit(create(claim([request, exact])), [plenty]))).toEqual({ [COUNT]: '1', [GPU]: '5', [TPU]: '32' });
  });

  it('charges nothing for an allocation mode it does not know', () => {
    const future = [
      { name: 'a', exactly: { deviceClassName: 'gpu', allocationMode: 'Future' } },
      { name: 'b', firstAvailable: [{ name: 's', deviceClassName: 'tpu', allocationMode: 'Future' }] },
    ];
    expect(quotaAdmit(create(claim(future)), [devices])).toEqual({ ok: true, updatedUsage: [] });
    expect(usedAfter(quotaAdmit(create(claim(future)), [plenty]))).toEqual({ [COUNT]: '1', [GPU]: '0', [TPU]: '0' });
  });

  it('counts the claim itself as count/resourceclaims.resource.k8s.io', () => {
    const counted = quota('claims', { [COUNT]: '2' }, { [COUNT]: '2' });
    expect(refusal(quotaAdmit(create(claim([])), [counted]))).toBe(
      'resourceclaims.resource.k8s.io "gpu" is forbidden: exceeded quota: claims, requested: count/resourceclaims.resource.k8s.io=1, used: count/resourceclaims.resource.k8s.io=2, limited: count/resourceclaims.resource.k8s.io=2',
    );
  });

  it('reads v1beta1 (fields on the request) and v1beta2 (exactly) claims as v1', () => {
    const v1beta1 = claim(
      [
        { name: 'a', deviceClassName: 'gpu', count: 2 },
        { name: 'b', firstAvailable: [{ name: 's', deviceClassName: 'tpu', allocationMode: 'All' }] },
      ],
      'resource.k8s.io/v1beta1',
    );
    const v1beta2 = claim(
      [
        { name: 'a', exactly: { deviceClassName: 'gpu', count: 2 } },
        { name: 'b', firstAvailable: [{ name: 's', deviceClassName: 'tpu', allocationMode: 'All' }] },
      ],
      'resource.k8s.io/v1beta2',
    );
    for (const written of [v1beta1, v1beta2]) {
      expect(usedAfter(quotaAdmit(create(written), [plenty]))).toEqual({ [COUNT]: '1', [GPU]: '2', [TPU]: '32' });
    }
  });

  it('charges an update the devices it adds, never its status, and is never matched by a scoped quota', () => {
    const before = claim([{ name: 'a', exactly: { deviceClassName: 'gpu', count: 2 } }], undefined, { resourceVersion: '4' });
    const after = claim([{ name: 'a', exactly: { deviceClassName: 'gpu', count: 5 } }], undefined, { resourceVersion: '4' });
    const tight = quota('tight', { [GPU]: '4' }, { [GPU]: '2' });
    expect(refusal(quotaAdmit(create(after, { operation: 'UPDATE', oldObject: before }), [tight]))).toBe(
      'resourceclaims.resource.k8s.io "gpu" is forbidden: exceeded quota: tight, requested: gpu.deviceclass.resource.k8s.io/devices=3, used: gpu.deviceclass.resource.k8s.io/devices=2, limited: gpu.deviceclass.resource.k8s.io/devices=4',
    );
    expect(quotaAdmit(create(after, { operation: 'UPDATE', oldObject: before, subResource: 'status' }), [tight])).toEqual({ ok: true, updatedUsage: [] });
    const scoped = quota('scoped', { [GPU]: '0' }, { [GPU]: '0' }, { scopes: ['NotTerminating'] });
    expect(quotaAdmit(create(claim([{ name: 'a', exactly: { deviceClassName: 'gpu' } }])), [scoped])).toEqual({ ok: true, updatedUsage: [] });
  });
});

describe('quotaAdmit: resource claims, devices as extended resources (DRAExtendedResource)', () => {
  const gpuClaim = (metadata: JsonRecord = {}) => claim([{ name: 'gpu', exactly: { deviceClassName: 'gpu', count: 2 } }], undefined, metadata);

  it('charges a class’s devices as its implicit extended resource, and as the extended resource it names', () => {
    const limits = quota('extended', { [IMPLICIT_GPU]: '10', 'requests.example.com/gpu': '1' }, { [IMPLICIT_GPU]: '0', 'requests.example.com/gpu': '0' });
    const cluster = clusterOf([deviceClass('gpu', 'example.com/gpu')]);
    expect(refusal(quotaAdmit(create(gpuClaim()), [limits], { cluster }))).toBe(
      'resourceclaims.resource.k8s.io "gpu" is forbidden: exceeded quota: extended, requested: requests.example.com/gpu=2, used: requests.example.com/gpu=0, limited: requests.example.com/gpu=1',
    );
    const roomy = quota('extended', { [IMPLICIT_GPU]: '10', 'requests.example.com/gpu': '10' }, { [IMPLICIT_GPU]: '0', 'requests.example.com/gpu': '0' });
    expect(usedAfter(quotaAdmit(create(gpuClaim()), [roomy], { cluster }))).toEqual({ [IMPLICIT_GPU]: '2', 'requests.example.com/gpu': '2' });
  });

  it('matches an extended resource quota only when a DeviceClass answers to the name', () => {
    const limits = quota('extended', { [IMPLICIT_GPU]: '0', 'requests.example.com/gpu': '0' }, { [IMPLICIT_GPU]: '0', 'requests.example.com/gpu': '0' });
    // No DeviceClass: neither name is the claim evaluator's, so the quota does not apply.
    expect(quotaAdmit(create(gpuClaim()), [limits], { cluster: clusterOf([]) })).toEqual({ ok: true, updatedUsage: [] });
    // A class without an extendedResourceName answers to its implicit name only.
    expect(refusal(quotaAdmit(create(gpuClaim()), [limits], { cluster: clusterOf([deviceClass('gpu')]) }))).toBe(
      'resourceclaims.resource.k8s.io "gpu" is forbidden: exceeded quota: extended, requested: requests.deviceclass.resource.kubernetes.io/gpu=2, used: requests.deviceclass.resource.kubernetes.io/gpu=0, limited: requests.deviceclass.resource.kubernetes.io/gpu=0',
    );
  });

  describe('a claim the scheduler made for a pod’s extended resources', () => {
    const pod = (status: JsonRecord = {}): JsonRecord => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'trainer', namespace: 'ns', uid: 'pod-uid' },
      spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { 'example.com/gpu': '2' }, limits: { 'example.com/gpu': '2' } } }] },
      status,
    });
    const owned = (name: string, creationTimestamp: string): JsonRecord =>
      claim([{ name: 'container-0-request-0', exactly: { deviceClassName: 'gpu', count: 2 } }], undefined, {
        name,
        creationTimestamp,
        annotations: { 'resource.kubernetes.io/extended-resource-claim': 'true' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'trainer', uid: 'pod-uid', controller: true }],
      });
    const limits = quota(
      'extended',
      { [IMPLICIT_GPU]: '10', 'requests.example.com/gpu': '10', [GPU]: '10' },
      { [IMPLICIT_GPU]: '0', 'requests.example.com/gpu': '2', [GPU]: '0' },
    );
    const classes = [deviceClass('gpu', 'example.com/gpu')];

    it('is not charged again what its pod already pays', () => {
      const made = owned('trainer-gpu-x', '2026-01-02T00:00:00Z');
      expect(usedAfter(quotaAdmit(create(made), [limits], { cluster: clusterOf([...classes, pod()]) }))).toEqual({
        [GPU]: '2',
        [IMPLICIT_GPU]: '2',
        'requests.example.com/gpu': '2',
      });
      // The pod naming this claim in its status: the same.
      const named = pod({ extendedResourceClaimStatus: { resourceClaimName: 'trainer-gpu-x', requestMappings: [] } });
      expect(usedAfter(quotaAdmit(create(made), [limits], { cluster: clusterOf([...classes, named]) }))).toEqual({
        [GPU]: '2',
        [IMPLICIT_GPU]: '2',
        'requests.example.com/gpu': '2',
      });
    });

    it('is charged in full when its pod names another claim, another claim came first, or the pod is not there', () => {
      const made = owned('trainer-gpu-x', '2026-01-02T00:00:00Z');
      const fullCharge = { [GPU]: '2', [IMPLICIT_GPU]: '2', 'requests.example.com/gpu': '4' };
      const other = pod({ extendedResourceClaimStatus: { resourceClaimName: 'trainer-gpu-y', requestMappings: [] } });
      expect(usedAfter(quotaAdmit(create(made), [limits], { cluster: clusterOf([...classes, other]) }))).toEqual(fullCharge);
      const earlier = owned('trainer-gpu-a', '2026-01-01T00:00:00Z');
      expect(usedAfter(quotaAdmit(create(made), [limits], { cluster: clusterOf([...classes, pod(), earlier]) }))).toEqual(fullCharge);
      const sameInstant = owned('trainer-gpu-a', '2026-01-02T00:00:00Z');
      expect(usedAfter(quotaAdmit(create(made), [limits], { cluster: clusterOf([...classes, pod(), sameInstant]) }))).toEqual(fullCharge);
      expect(usedAfter(quotaAdmit(create(made), [limits], { cluster: clusterOf(classes) }))).toEqual(fullCharge);
    });
  });
});
