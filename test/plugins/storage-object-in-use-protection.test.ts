// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go).
import { deepFreeze } from '../../lib/kube/json';
import type { JsonRecord } from '../../lib/kube/record';
import { storageObjectInUseProtection } from '../../lib/plugins/storage-object-in-use-protection';
import { attributesFor, mutationRequest } from './fake-cluster';

function object(kind: string, apiVersion: string, finalizers?: string[]): JsonRecord {
  const o = { apiVersion, kind, metadata: { name: 'x', ...(finalizers ? { finalizers } : {}) }, spec: {} };
  deepFreeze(o);
  return o;
}

const admit = (resource: string, o: JsonRecord, extra = {}) => storageObjectInUseProtection.admit(mutationRequest(attributesFor('CREATE', resource, o, extra)));

describe('StorageObjectInUseProtection', () => {
  it.each([
    ['persistentvolumeclaims', 'PersistentVolumeClaim', 'v1', 'kubernetes.io/pvc-protection'],
    ['persistentvolumes', 'PersistentVolume', 'v1', 'kubernetes.io/pv-protection'],
    ['volumeattributesclasses', 'VolumeAttributesClass', 'storage.k8s.io/v1', 'kubernetes.io/vac-protection'],
  ])('gives a created %s the finalizer %s (after those it has), once', (resource, kind, apiVersion, finalizer) => {
    expect(admit(resource, object(kind, apiVersion))?.metadata).toEqual({ name: 'x', finalizers: [finalizer] });
    expect(admit(resource, object(kind, apiVersion, ['example.com/keep']))?.metadata).toEqual({ name: 'x', finalizers: ['example.com/keep', finalizer] });
    expect(admit(resource, object(kind, apiVersion, [finalizer, 'example.com/keep']))).toBeUndefined();
  });

  it('acts on creates of those resources only', () => {
    const claim = object('PersistentVolumeClaim', 'v1');
    expect(storageObjectInUseProtection.admit(mutationRequest(attributesFor('UPDATE', 'persistentvolumeclaims', claim)))).toBeUndefined();
    expect(admit('persistentvolumeclaims', claim, { subResource: 'status' })).toBeUndefined();
    expect(admit('configmaps', object('ConfigMap', 'v1'))).toBeUndefined();
    expect(storageObjectInUseProtection.name).toBe('StorageObjectInUseProtection');
  });
});
