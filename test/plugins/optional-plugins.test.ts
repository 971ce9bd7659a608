// The off-by-default plugins on objects written here, for what the recordings do not show: their
// configuration read from an AdmissionConfiguration, PodNodeSelector's refusals, the cluster's
// toleration whitelist, AlwaysPullImages' Validate, an owner kind no resource maps to, and turning them on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHarness, review, type Harness, type HarnessOptions } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { alwaysPullImagesValidate } from '../../lib/plugins/optional/always-pull-images';
import { readAdmissionConfiguration } from '../../lib/plugins/optional/admission-configuration';
import { ownerReferencesPermissionEnforcementValidate } from '../../lib/plugins/optional/owner-references-permission-enforcement';
import { attributesFor } from './fake-cluster';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
async function harness(options: Partial<HarnessOptions>): Promise<Harness> {
  const h = await createHarness({ seed: 29, ...options });
  harnesses.push(h);
  return h;
}
const ns = (name: string, annotations: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, annotations } });
const pod = (namespace: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace, ...(labels ? { labels } : {}) },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
});
const admissionConfiguration = (plugins: unknown[]) => ({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins });

describe('the AdmissionConfiguration', () => {
  it('is read from a file, each plugin’s configuration inline or in the file its path names', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'admission-config-'));
    writeFileSync(
      path.join(dir, 'ptr.yaml'),
      'apiVersion: podtolerationrestriction.admission.k8s.io/v1alpha1\nkind: Configuration\nwhitelist:\n- key: team\n  operator: Exists\n',
    );
    const file = path.join(dir, 'admission.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodNodeSelector\n  configuration:\n    podNodeSelectorPluginConfig:\n      clusterDefaultNodeSelector: env=prod\n- name: PodTolerationRestriction\n  path: ptr.yaml\n- name: PodSecurity\n  configuration: {}\n',
    );
    expect(readAdmissionConfiguration(file)).toEqual({
      podNodeSelector: { clusterDefaultNodeSelector: 'env=prod' },
      podTolerationRestriction: { whitelist: [{ key: 'team', operator: 'Exists' }] },
    });
  });

  it('refuses what kube-apiserver could not read, naming the file and the field', () => {
    expect(() => readAdmissionConfiguration('/no/such/admission.yaml')).toThrow(/^\/no\/such\/admission\.yaml: cannot read \/no\/such\/admission\.yaml/);
    expect(() => readAdmissionConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfig' })).toThrow(
      'plugins.configuration: kind is "AdmissionConfig", not AdmissionConfiguration',
    );
    expect(() => readAdmissionConfiguration(admissionConfiguration([{ name: 'PodTolerationRestriction', configuration: { default: { key: 'x' } } }]))).toThrow(
      'plugins.configuration: plugins[0] (PodTolerationRestriction).configuration.default: must be a list of tolerations',
    );
  });
});

describe('PodNodeSelector', () => {
  const configuration = admissionConfiguration([
    { name: 'PodNodeSelector', configuration: { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=default', limited: 'env=limited' } } },
  ]);

  it('refuses a pod whose selector conflicts with its namespace’s, and one outside the namespace’s whitelist: 403, named after the pod', async () => {
    const h = await harness({
      plugins: { enable: ['PodNodeSelector'], configuration },
      objects: [
        ns('dev', { 'scheduler.alpha.kubernetes.io/node-selector': 'env=dev' }),
        ns('limited', { 'scheduler.alpha.kubernetes.io/node-selector': 'env=other' }),
      ],
    });
    const conflict = await h.admit(review.create(pod('dev', { nodeSelector: { env: 'prod' } })));
    expect(conflict.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "web" is forbidden: pod node label selector conflicts with its namespace node label selector',
    });
    expect(String(conflict.trace)).toContain('PodNodeSelector (built-in plugin): rejected');
    const outside = await h.admit(review.create(pod('limited')));
    expect(outside.status).toMatchObject({
      code: 403,
      message: 'pods "web" is forbidden: pod node label selector labels conflict with its namespace whitelist',
    });
  });
});

describe('PodTolerationRestriction', () => {
  it('refuses tolerations outside the configuration’s whitelist with a bare 500 naming the cluster whitelist', async () => {
    const configuration = admissionConfiguration([
      {
        name: 'PodTolerationRestriction',
        configuration: {
          whitelist: [
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists' },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists' },
          ],
        },
      },
    ]);
    const h = await harness({ plugins: { enable: ['PodTolerationRestriction'], configuration }, namespaces: [{ name: 'shop' }] });
    expect(await h.admit(review.create(pod('shop')))).toBeAllowed();
    const result = await h.admit(review.create(pod('shop', { tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] })));
    expect(result.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist',
      code: 500,
    });
  });
});

describe('AlwaysPullImages', () => {
  it('Validate refuses a container a later webhook set to another policy: the aggregate of its Forbidden errors, answered as a 500', () => {
    const object = pod('shop', {
      containers: [
        { name: 'a', image: 'x:1', imagePullPolicy: 'IfNotPresent' },
        { name: 'b', image: 'x:2', imagePullPolicy: 'Always' },
        { name: 'c', image: 'x:3' },
      ],
    }) as JsonRecord;
    const status = alwaysPullImagesValidate(attributesFor('CREATE', 'pods', object, { name: 'web' }), object);
    expect(status).toMatchObject({
      code: 500,
      message:
        '[pods "web" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values: "Always", pods "web" is forbidden: spec.containers[2].imagePullPolicy: Unsupported value: "": supported values: "Always"]',
    });
    expect(status).not.toHaveProperty('reason');
  });
});

describe('OwnerReferencesPermissionEnforcement', () => {
  it('refuses blockOwnerDeletion on an owner kind no resource maps to', () => {
    const object = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        namespace: 'shop',
        ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: 'u1', blockOwnerDeletion: true }],
      },
    };
    const status = ownerReferencesPermissionEnforcementValidate(
      attributesFor('CREATE', 'configmaps', object),
      () => ({ decision: 'noOpinion' }),
      () => [],
    );
    expect(status?.message).toBe(
      'configmaps "c" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Widget: no matches for kind "Widget" in version "example.com/v1"',
    );
  });
});

describe('turning them on', () => {
  it('is off by default; plugins.enable turns one on, and refuses a name the harness does not run with the nearest one', async () => {
    const off = await harness({ namespaces: [{ name: 'shop' }] });
    const pulled = (h: Harness) =>
      h.admit(review.create(pod('shop'))).then((r) => (r.object?.spec as { containers: { imagePullPolicy: string }[] }).containers[0]!.imagePullPolicy);
    expect(await pulled(off)).toBe('IfNotPresent');
    expect(await pulled(await harness({ namespaces: [{ name: 'shop' }], plugins: { enable: ['AlwaysPullImages'] } }))).toBe('Always');
    await expect(createHarness({ plugins: { enable: ['AlwaysPullImage'] } })).rejects.toThrow(
      'plugins.enable names "AlwaysPullImage" (did you mean "AlwaysPullImages"?), which the harness does not run',
    );
  });
});

describe('PodTopologyLabels', () => {
  it('overwrites a pod’s own zone with its node’s at create, keeping its other labels', async () => {
    const node: KubeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'zone-a', 'topology.k8s.io/zone': 'k8s-zone' } },
    };
    const h = await harness({ namespaces: [{ name: 'shop' }], objects: [node] });
    const result = await h.admit(review.create(pod('shop', { nodeName: 'n1' }, { app: 'web', 'topology.kubernetes.io/zone': 'user-set-zone' })));
    expect(result.object?.metadata?.labels).toEqual({ app: 'web', 'topology.kubernetes.io/zone': 'zone-a' });
  });
});
