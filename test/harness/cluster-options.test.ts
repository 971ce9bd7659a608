// createHarness's description of the cluster: which built-in plugins it needs on (plugins.enable, checked as
// kube-apiserver checks --enable-admission-plugins) and objects seeded in any order.
import { createHarness, review, type Harness } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

const pod = (serviceAccountName: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { serviceAccountName, containers: [{ name: 'app', image: 'registry.example.com/app:1.0' }] },
});
const account: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'shop' } };
const shop: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } };

describe('createHarness plugins.enable', () => {
  it('takes plugins the harness runs, which stay on', async () => {
    const h = await createHarness({ seed: 12, plugins: { enable: ['ServiceAccount'] }, namespaces: [{ name: 'shop' }] });
    harnesses.push(h);
    const result = await h.admit(review.create(pod('nobody')));
    expect(result.status?.message).toBe('pods "web" is forbidden: error looking up service account shop/nobody: serviceaccount "nobody" not found');
  });

  it('refuses a plugin the harness does not run, with the nearest spelling', async () => {
    await expect(createHarness({ seed: 12, plugins: { enable: ['ServiceAcount'] } })).rejects.toThrow(
      'plugins.enable names "ServiceAcount" (did you mean "ServiceAccount"?), which the harness does not run',
    );
  });

  it('refuses a plugin both on and off, as kube-apiserver refuses to start', async () => {
    await expect(
      createHarness({ seed: 12, plugins: { enable: ['ServiceAccount', 'PodSecurity'], disable: ['PodSecurity', 'ServiceAccount'] } }),
    ).rejects.toThrow(
      'plugins.enable and plugins.disable both name "PodSecurity", "ServiceAccount"\n  hint: a plugin is on or off, not both (kube-apiserver refuses to start: [PodSecurity ServiceAccount] in enable-admission-plugins and disable-admission-plugins overlapped)',
    );
  });
});

describe('createHarness objects', () => {
  it('seeds Namespaces first, whatever the order given', async () => {
    const h = await createHarness({ seed: 12, objects: [account, shop] });
    harnesses.push(h);
    expect(await h.admit(review.create(pod('builder')))).toBeAllowed();
  });

  it('refuses an object whose namespace is never defined, naming it by its place in the list', async () => {
    await expect(createHarness({ seed: 12, objects: [shop, { ...account, metadata: { name: 'builder', namespace: 'elsewhere' } }] })).rejects.toThrow(
      'objects[1] (ServiceAccount "elsewhere/builder"): namespaces "elsewhere" not found',
    );
  });
});
