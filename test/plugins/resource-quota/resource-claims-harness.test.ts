// A ResourceClaim's devices charged through the harness, as kube-apiserver's ResourceQuota plugin charges
// them (pkg/quota/v1/evaluator/core/resource_claims.go, v1.36): the cluster's DeviceClasses decide which
// extended resource names the claim also counts as, and an admitted claim raises the quota's status.used.
import { createHarness, review, type Harness } from '../../../lib';
import type { KubeObject } from '../../../lib/kube/admission';

const shop: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };
const gpuClass: KubeObject = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name: 'gpu' },
  spec: { extendedResourceName: 'example.com/gpu' },
};
const hard = { 'gpu.deviceclass.resource.k8s.io/devices': '4', 'requests.example.com/gpu': '3', 'count/resourceclaims.resource.k8s.io': '5' };
const quota: KubeObject = {
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'devices', namespace: 'shop' },
  spec: { hard },
  status: { hard, used: { 'gpu.deviceclass.resource.k8s.io/devices': '0', 'requests.example.com/gpu': '0', 'count/resourceclaims.resource.k8s.io': '0' } },
};
const claim = (name: string, count: number): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace: 'shop' },
  spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu', count } }] } },
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: 21, plugins: { enable: ['ResourceQuota'] }, objects: [shop, gpuClass, quota] });
}, 60_000);
afterAll(async () => {
  await h.close();
});

describe('ResourceQuota charges a resource claim through the harness', () => {
  it('refuses a claim past the extended resource its DeviceClass names, and records an admitted one', async () => {
    const refused = await h.admit(review.create(claim('big', 4)));
    expect([refused.status?.code, refused.status?.message]).toEqual([
      403,
      'resourceclaims.resource.k8s.io "big" is forbidden: exceeded quota: devices, requested: requests.example.com/gpu=4, used: requests.example.com/gpu=0, limited: requests.example.com/gpu=3',
    ]);
    expect(await h.admit(review.create(claim('small', 2)))).toBeAllowed();
    const after = await h.admit(review.create(claim('again', 2)));
    expect(after.status?.message).toBe(
      'resourceclaims.resource.k8s.io "again" is forbidden: exceeded quota: devices, requested: requests.example.com/gpu=2, used: requests.example.com/gpu=2, limited: requests.example.com/gpu=3',
    );
  });
});
