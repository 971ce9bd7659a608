// The rest of the default plugins in h.admit: each reads the cluster's objects (`objects`) and acts in
// its phase (k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go); the plugins themselves are tested one by one beside this file.
import { createHarness, review, type Harness, type HarnessOptions } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
async function harness(objects: KubeObject[], options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await createHarness({ seed: 14, namespaces: [{ name: 'shop' }], objects, ...options });
  harnesses.push(h);
  return h;
}
const pod = (spec: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
});

it('Priority: a class that does not exist refuses the pod in the mutation phase; a globalDefault class is applied', async () => {
  const h = await harness([{ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'standard' }, value: 1000, globalDefault: true }]);
  const missing = await h.admit(review.create(pod({ priorityClassName: 'urgent' })));
  expect(missing.status).toMatchObject({ code: 403, message: 'pods "web" is forbidden: no PriorityClass with name urgent was found' });
  expect(String(missing.trace)).toContain('Priority (built-in plugin): rejected');
  const defaulted = await h.admit(review.create(pod()));
  expect(defaulted.object?.spec).toMatchObject({ priorityClassName: 'standard', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
});

it('DefaultStorageClass and StorageObjectInUseProtection: a claim gets the default class and the protection finalizer', async () => {
  const h = await harness([
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'example.com/disk',
    },
  ]);
  const claim: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'shop' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
  const result = await h.admit(review.create(claim));
  expect(result).toBeAllowed();
  expect(result.object?.spec).toMatchObject({ storageClassName: 'fast' });
  expect(result.object?.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
});

it('RuntimeClass: the class’s overhead is set on the pod; a class that does not exist refuses it', async () => {
  const h = await harness([
    {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'gvisor' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    },
  ]);
  const result = await h.admit(review.create(pod({ runtimeClassName: 'gvisor' })));
  expect(result).toBeAllowed();
  expect(result.object?.spec).toMatchObject({ overhead: { cpu: '250m', memory: '120Mi' } });
  const missing = await h.admit(review.create(pod({ runtimeClassName: 'kata' })));
  expect(missing.status).toMatchObject({ code: 403, message: 'pods "web" is forbidden: pod rejected: RuntimeClass "kata" not found' });
});
