// PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize/admission.go), on a
// small fake cluster: 403 `persistentvolumeclaims "<name>" is forbidden: <cause>`.
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { pvcResizeValidate } from '../../lib/plugins/pvc-resize';
import { attributesFor, fakeCluster } from './fake-cluster';

const storageClass = (name: string, allowVolumeExpansion?: boolean): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'example.com/csi',
  ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
});

function claim(storage: string | undefined, options: { className?: string; phase?: string; annotations?: Record<string, string> } = {}): JsonRecord {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'ns', ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: storage === undefined ? {} : { requests: { storage } },
      ...(options.className === undefined ? {} : { storageClassName: options.className }),
    },
    status: { phase: options.phase ?? 'Bound' },
  };
}

const update = (old: JsonRecord, next: JsonRecord, ...classes: KubeObject[]) =>
  pvcResizeValidate(attributesFor('UPDATE', 'persistentvolumeclaims', next, { oldObject: old }), fakeCluster(...classes));
const MUST_SUPPORT =
  'persistentvolumeclaims "data" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

describe('PersistentVolumeClaimResize', () => {
  it('lets a bound claim grow when its StorageClass allows expansion', () => {
    expect(update(claim('1Gi', { className: 'fast' }), claim('2Gi', { className: 'fast' }), storageClass('fast', true))).toBeUndefined();
  });

  it("refuses growth when the class does not allow it, leaves it unset, or does not exist, with kube's Status", () => {
    expect(update(claim('1Gi', { className: 'fast' }), claim('2Gi', { className: 'fast' }), storageClass('fast', false))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: MUST_SUPPORT,
      reason: 'Forbidden',
      details: { name: 'data', kind: 'persistentvolumeclaims' },
      code: 403,
    });
    expect(update(claim('1Gi', { className: 'fast' }), claim('2Gi', { className: 'fast' }), storageClass('fast'))?.message).toBe(MUST_SUPPORT);
    expect(update(claim('1Gi', { className: 'fast' }), claim('2Gi', { className: 'fast' }))?.message).toBe(MUST_SUPPORT);
  });

  it('refuses growth of a claim without a class, or whose class changes', () => {
    expect(update(claim('1Gi'), claim('2Gi'), storageClass('fast', true))?.message).toBe(MUST_SUPPORT);
    expect(update(claim('1Gi', { className: '' }), claim('2Gi', { className: '' }), storageClass('fast', true))?.message).toBe(MUST_SUPPORT);
    expect(
      update(claim('1Gi', { className: 'slow' }), claim('2Gi', { className: 'fast' }), storageClass('fast', true), storageClass('slow', true))?.message,
    ).toBe(MUST_SUPPORT);
  });

  it('reads the beta class annotation before spec.storageClassName', () => {
    const beta = { 'volume.beta.kubernetes.io/storage-class': 'fast' };
    expect(
      update(
        claim('1Gi', { className: 'slow', annotations: beta }),
        claim('2Gi', { className: 'slow', annotations: beta }),
        storageClass('fast', true),
        storageClass('slow', false),
      ),
    ).toBeUndefined();
  });

  it('refuses growth of a claim that was not Bound, before looking at its class', () => {
    expect(update(claim('1Gi', { className: 'fast', phase: 'Pending' }), claim('2Gi', { className: 'fast' }), storageClass('fast', true))?.message).toBe(
      'persistentvolumeclaims "data" is forbidden: Only bound persistent volume claims can be expanded',
    );
  });

  it('leaves sizes that do not grow to others: equal by value, smaller, or both unset', () => {
    expect(update(claim('1Gi', { className: 'fast' }), claim('1024Mi', { className: 'fast' }))).toBeUndefined();
    expect(update(claim('2Gi', { className: 'fast', phase: 'Pending' }), claim('1Gi', { className: 'fast' }))).toBeUndefined();
    expect(update(claim(undefined), claim(undefined))).toBeUndefined();
    // Growing from no request at all is growth.
    expect(update(claim(undefined, { className: 'fast' }), claim('1Gi', { className: 'fast' }))?.message).toBe(MUST_SUPPORT);
  });

  it('judges updates of the claim itself only', () => {
    expect(pvcResizeValidate(attributesFor('CREATE', 'persistentvolumeclaims', claim('2Gi')), fakeCluster())).toBeUndefined();
    expect(
      pvcResizeValidate(
        attributesFor('UPDATE', 'persistentvolumeclaims', claim('2Gi'), { oldObject: claim('1Gi') as KubeObject, subResource: 'status' }),
        fakeCluster(),
      ),
    ).toBeUndefined();
  });
});
