// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault/admission.go, with
// pkg/volume/util/storageclass.go GetDefaultClass), on a small fake cluster.
import { deepFreeze } from '../../lib/kube/json';
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { defaultStorageClass } from '../../lib/plugins/default-storage-class';
import { attributesFor, fakeCluster, mutationRequest } from './fake-cluster';

const storageClass = (name: string, annotations: Record<string, string> = {}, creationTimestamp = '2026-06-01T10:00:00Z'): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name, annotations, creationTimestamp },
  provisioner: 'example.com/csi',
});
const isDefault = { 'storageclass.kubernetes.io/is-default-class': 'true' };

function claim(spec: JsonRecord = {}, annotations?: Record<string, string>): JsonRecord {
  const object = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'ns', ...(annotations ? { annotations } : {}) },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  };
  deepFreeze(object);
  return object;
}

const admitCreate = (object: JsonRecord, ...classes: KubeObject[]) =>
  defaultStorageClass.admit(mutationRequest(attributesFor('CREATE', 'persistentvolumeclaims', object), fakeCluster(...classes)));

describe('DefaultStorageClass', () => {
  it('is named as --enable-admission-plugins spells it', () => {
    expect(defaultStorageClass.name).toBe('DefaultStorageClass');
  });

  it('gives a created claim without a class the default StorageClass, reading the cluster-scoped StorageClasses', () => {
    const cluster = fakeCluster(storageClass('slow'), storageClass('standard', isDefault));
    const changed = defaultStorageClass.admit(mutationRequest(attributesFor('CREATE', 'persistentvolumeclaims', claim()), cluster));
    expect(changed?.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'standard' });
    expect(cluster.calls).toEqual(['storage.k8s.io/v1 StorageClass ']);
  });

  it('leaves the claim alone when no class is the default (or none exists)', () => {
    expect(admitCreate(claim(), storageClass('slow'))).toBeUndefined();
    expect(admitCreate(claim())).toBeUndefined();
  });

  it('counts only the value "true", and the beta annotation as well', () => {
    expect(admitCreate(claim(), storageClass('a', { 'storageclass.kubernetes.io/is-default-class': 'True' }))).toBeUndefined();
    expect(admitCreate(claim(), storageClass('a', { 'storageclass.kubernetes.io/is-default-class': 'yes' }))).toBeUndefined();
    expect(admitCreate(claim(), storageClass('beta', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }))?.spec).toMatchObject({
      storageClassName: 'beta',
    });
  });

  it('picks the newest of several defaults, then the first by name', () => {
    const older = storageClass('aaa', isDefault, '2026-05-01T00:00:00Z');
    const newer = storageClass('zzz', isDefault, '2026-06-01T00:00:00Z');
    expect(admitCreate(claim(), older, newer)?.spec).toMatchObject({ storageClassName: 'zzz' });
    expect(admitCreate(claim(), newer, older)?.spec).toMatchObject({ storageClassName: 'zzz' });
    const tied = [storageClass('b', isDefault), storageClass('a', isDefault), storageClass('c', isDefault)];
    expect(admitCreate(claim(), ...tied)?.spec).toMatchObject({ storageClassName: 'a' });
  });

  it('respects a class the claim asked for: any storageClassName, "" included, or the beta annotation', () => {
    const cluster = [storageClass('standard', isDefault)];
    expect(admitCreate(claim({ storageClassName: 'fast' }), ...cluster)).toBeUndefined();
    expect(admitCreate(claim({ storageClassName: '' }), ...cluster)).toBeUndefined();
    expect(admitCreate(claim({}, { 'volume.beta.kubernetes.io/storage-class': '' }), ...cluster)).toBeUndefined();
    // null decodes to a nil pointer: no class asked for.
    expect(admitCreate(claim({ storageClassName: null }), ...cluster)?.spec).toMatchObject({ storageClassName: 'standard' });
  });

  it('acts on creates of the claim itself only', () => {
    const cluster = fakeCluster(storageClass('standard', isDefault));
    expect(defaultStorageClass.admit(mutationRequest(attributesFor('UPDATE', 'persistentvolumeclaims', claim()), cluster))).toBeUndefined();
    expect(
      defaultStorageClass.admit(mutationRequest(attributesFor('CREATE', 'persistentvolumeclaims', claim(), { subResource: 'status' }), cluster)),
    ).toBeUndefined();
    expect(
      defaultStorageClass.admit(
        mutationRequest(attributesFor('CREATE', 'configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }), cluster),
      ),
    ).toBeUndefined();
    expect(cluster.calls).toEqual([]);
  });

  it('does nothing without a cluster to read', () => {
    expect(defaultStorageClass.admit(mutationRequest(attributesFor('CREATE', 'persistentvolumeclaims', claim())))).toBeUndefined();
  });
});
