// ServiceAccount (plugin/pkg/admission/serviceaccount/admission.go): Admit defaults the account, reads it
// from the cluster (refusing one that does not exist), mounts the token volume unless the pod or the
// account opts out, copies the account's image pull secrets; Validate holds mirror pods and accounts
// that enforce mountable secrets to their rules, on create and on the ephemeralcontainers subresource.
import { deepFreeze } from '../../lib/kube/json';
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { isRefusingPlugin } from '../../lib/plugins/refusing-plugin';
import { serviceAccount, serviceAccountValidate } from '../../lib/plugins/service-account';
import { attributesFor, fakeCluster, mutationRequest } from './fake-cluster';

const account = (name: string, extra: JsonRecord = {}, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, namespace: 'ns', ...(annotations ? { annotations } : {}) },
  ...extra,
});
const enforcing = (name: string, extra: JsonRecord = {}) => account(name, extra, { 'kubernetes.io/enforce-mountable-secrets': 'true' });

function pod(spec: JsonRecord = {}, metadata: JsonRecord = {}): JsonRecord {
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns', ...metadata },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
  deepFreeze(object);
  return object;
}

// The namespace's `default` account, as the mock cluster's store holds it, unless the test gives its own.
const withDefault = (accounts: KubeObject[]) => (accounts.some((a) => a.metadata?.name === 'default') ? accounts : [account('default'), ...accounts]);
const create = (object: JsonRecord, ...accounts: KubeObject[]) =>
  serviceAccount.decide(mutationRequest(attributesFor('CREATE', 'pods', object), fakeCluster(...withDefault(accounts))));
const specOf = (decision: { object?: JsonRecord }) => decision.object?.spec as JsonRecord | undefined;
const TOKEN_MOUNT = { name: 'kube-api-access-xxxxx', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };

describe('ServiceAccount (mutation)', () => {
  it('names the default account and mounts its token; a namespace without one refuses the pod', () => {
    expect(serviceAccount.decide(mutationRequest(attributesFor('CREATE', 'pods', pod()), fakeCluster())).refusal?.message).toBe(
      'pods "web" is forbidden: error looking up service account ns/default: serviceaccount "default" not found',
    );
    const cluster = fakeCluster(account('default'));
    const spec = specOf(serviceAccount.decide(mutationRequest(attributesFor('CREATE', 'pods', pod()), cluster)));
    expect(spec).toMatchObject({ serviceAccountName: 'default', serviceAccount: 'default', containers: [{ name: 'app', volumeMounts: [TOKEN_MOUNT] }] });
    expect(spec?.volumes).toEqual([
      {
        name: 'kube-api-access-xxxxx',
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
          ],
          defaultMode: 420,
        },
      },
    ]);
    // Admit reads the account, then ends with Validate, which reads it again.
    expect(cluster.calls).toEqual(['v1 ServiceAccount ns default', 'v1 ServiceAccount ns default']);
    expect(isRefusingPlugin(serviceAccount)).toBe(true);
    expect(serviceAccount.name).toBe('ServiceAccount');
  });

  it('refuses a pod naming an account the namespace does not have, with kube’s text', () => {
    expect(create(pod({ serviceAccountName: 'builder' }), account('deployer'))).toEqual({
      refusal: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'pods "web" is forbidden: error looking up service account ns/builder: serviceaccount "builder" not found',
        reason: 'Forbidden',
        details: { name: 'web', kind: 'pods' },
        code: 403,
      },
      // What the harness's hint reads (it names the account to seed), rather than the text above.
      missing: { kind: 'ServiceAccount', namespace: 'ns', name: 'builder' },
    });
    // An account of that name in another namespace is not the pod's.
    expect(create(pod({ serviceAccountName: 'builder' }), { ...account('builder'), metadata: { name: 'builder', namespace: 'other' } }).refusal?.message).toBe(
      'pods "web" is forbidden: error looking up service account ns/builder: serviceaccount "builder" not found',
    );
    expect(create(pod({ serviceAccountName: 'builder' }), account('builder')).refusal).toBeUndefined();
  });

  it('names a generateName pod by its prefix in the refusal, as admission.NewForbidden does', () => {
    const object = pod({ serviceAccountName: 'ghost' });
    const { name: _name, ...metadata } = object.metadata as JsonRecord;
    const decision = create({ ...object, metadata: { ...metadata, generateName: 'web-' } });
    expect(decision.refusal?.message).toBe('pods "web-" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found');
  });

  it('leaves the token out when the pod opts out, else when the account does; the pod’s choice wins', () => {
    expect(specOf(create(pod({ automountServiceAccountToken: false })))).toEqual({
      containers: [{ name: 'app', image: 'nginx' }],
      automountServiceAccountToken: false,
      serviceAccountName: 'default',
      serviceAccount: 'default',
    });
    const optedOut = account('default', { automountServiceAccountToken: false });
    expect(specOf(create(pod(), optedOut))).not.toHaveProperty('volumes');
    expect(specOf(create(pod({ automountServiceAccountToken: true }), optedOut))).toHaveProperty('volumes');
    // Nothing to change at all: the account named, the token not wanted.
    expect(create(pod({ serviceAccountName: 'builder', automountServiceAccountToken: false }), account('builder'))).toEqual({});
  });

  it('mounts into init and app containers, keeps a container that already mounts the token path, reuses an existing volume', () => {
    const own = { name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    const spec = specOf(
      create(
        pod({
          initContainers: [{ name: 'init', image: 'busybox' }],
          containers: [
            { name: 'app', image: 'nginx', volumeMounts: [own] },
            { name: 'side', image: 'envoy' },
          ],
        }),
      ),
    );
    expect(spec?.initContainers).toEqual([{ name: 'init', image: 'busybox', volumeMounts: [TOKEN_MOUNT] }]);
    expect(spec?.containers).toEqual([
      { name: 'app', image: 'nginx', volumeMounts: [own] },
      { name: 'side', image: 'envoy', volumeMounts: [TOKEN_MOUNT] },
    ]);
    const again = specOf(create(pod({ volumes: [{ name: 'kube-api-access-abcde', projected: { sources: [] } }] })));
    expect(again?.containers).toEqual([{ name: 'app', image: 'nginx', volumeMounts: [{ ...TOKEN_MOUNT, name: 'kube-api-access-abcde' }] }]);
    expect(again?.volumes).toEqual([{ name: 'kube-api-access-abcde', projected: { sources: [] } }]);
  });

  it('copies the account’s image pull secrets into a pod that has none, and only then', () => {
    const withPull = account('default', { imagePullSecrets: [{ name: 'regcred' }, { name: 'mirror' }] });
    expect(specOf(create(pod(), withPull))?.imagePullSecrets).toEqual([{ name: 'regcred' }, { name: 'mirror' }]);
    expect(specOf(create(pod({ imagePullSecrets: [{ name: 'own' }] }), withPull))?.imagePullSecrets).toEqual([{ name: 'own' }]);
  });

  it('leaves anything but a pod create alone', () => {
    expect(serviceAccount.decide(mutationRequest(attributesFor('UPDATE', 'pods', pod({ serviceAccountName: 'ghost' })), fakeCluster()))).toEqual({});
    expect(
      serviceAccount.decide(mutationRequest(attributesFor('CREATE', 'pods', pod({ serviceAccountName: 'ghost' }), { subResource: 'binding' }), fakeCluster())),
    ).toEqual({});
    expect(
      serviceAccount.decide(
        mutationRequest(
          attributesFor('CREATE', 'configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } }),
          fakeCluster(),
        ),
      ),
    ).toEqual({});
  });

  it('without a cluster (the review builders) takes every account to exist', () => {
    expect(specOf(serviceAccount.decide(mutationRequest(attributesFor('CREATE', 'pods', pod({ serviceAccountName: 'builder' })))))).toMatchObject({
      serviceAccountName: 'builder',
      volumes: [{ name: 'kube-api-access-xxxxx' }],
    });
  });
});

describe('ServiceAccount: mirror pods', () => {
  const mirror = (spec: JsonRecord = {}) => pod(spec, { annotations: { 'kubernetes.io/config.mirror': 'hash' } });

  it('changes nothing in a mirror pod and needs no account', () => {
    expect(create(mirror())).toEqual({});
  });

  it.each([
    ['an account', { serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
    ['an account by its deprecated field', { serviceAccount: 'default' }, 'a mirror pod may not reference service accounts'],
    ['a secret volume', { volumes: [{ name: 's', secret: { secretName: 'x' } }] }, 'a mirror pod may not reference secrets'],
    ['an image pull secret', { imagePullSecrets: [{ name: 'regcred' }] }, 'a mirror pod may not reference secrets'],
    [
      'a secret in env',
      { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }] }] },
      'a mirror pod may not reference secrets',
    ],
    [
      'a secret in envFrom',
      { containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'x' } }] }] },
      'a mirror pod may not reference secrets',
    ],
    ['a projected secret', { volumes: [{ name: 'p', projected: { sources: [{ secret: { name: 'x' } }] } }] }, 'a mirror pod may not reference secrets'],
    [
      'a CSI node-publish secret',
      { volumes: [{ name: 'c', csi: { driver: 'd', nodePublishSecretRef: { name: 'x' } } }] },
      'a mirror pod may not reference secrets',
    ],
    [
      'a token projection',
      { volumes: [{ name: 'p', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } }] },
      'a mirror pod may not use ServiceAccountToken volume projections',
    ],
  ])('refuses a mirror pod referencing %s', (_what, spec, cause) => {
    expect(create(mirror(spec)).refusal?.message).toBe(`pods "web" is forbidden: ${cause}`);
  });
});

describe('ServiceAccount: mountable secrets (kubernetes.io/enforce-mountable-secrets)', () => {
  const env = (secret: string) => [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }];

  it.each([
    [
      'a secret volume',
      { volumes: [{ name: 'creds', secret: { secretName: 'db' } }] },
      'volume with secret.secretName="db" is not allowed because service account runner does not reference that secret',
    ],
    [
      'an init container’s env',
      { initContainers: [{ name: 'init', image: 'i', env: env('db') }] },
      'init container init with envVar TOKEN referencing secret.secretName="db" is not allowed because service account runner does not reference that secret',
    ],
    [
      'an init container’s envFrom',
      { initContainers: [{ name: 'init', image: 'i', envFrom: [{ secretRef: { name: 'db' } }] }] },
      'init container init with envFrom referencing secret.secretName="db" is not allowed because service account runner does not reference that secret',
    ],
    [
      'a container’s env',
      { containers: [{ name: 'app', image: 'nginx', env: env('db') }] },
      'container app with envVar TOKEN referencing secret.secretName="db" is not allowed because service account runner does not reference that secret',
    ],
    [
      'a container’s envFrom',
      { containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'db' } }] }] },
      'container app with envFrom referencing secret.secretName="db" is not allowed because service account runner does not reference that secret',
    ],
    [
      'an image pull secret',
      { imagePullSecrets: [{ name: 'ok' }, { name: 'regcred' }] },
      'imagePullSecrets[1].name="regcred" is not allowed because service account runner does not reference that imagePullSecret',
    ],
  ])('refuses %s naming a secret the account does not list', (_what, spec, cause) => {
    const runner = enforcing('runner', { secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'ok' }] });
    expect(create(pod({ serviceAccountName: 'runner', automountServiceAccountToken: false, ...spec }), runner).refusal?.message).toBe(
      `pods "web" is forbidden: ${cause}`,
    );
  });

  it('admits the secrets the account lists, and enforces nothing unless the annotation parses as true', () => {
    const spec = { serviceAccountName: 'runner', volumes: [{ name: 'creds', secret: { secretName: 'db' } }] };
    expect(create(pod(spec), enforcing('runner', { secrets: [{ name: 'db' }] })).refusal).toBeUndefined();
    expect(create(pod(spec), account('runner', {}, { 'kubernetes.io/enforce-mountable-secrets': 'yes' })).refusal).toBeUndefined();
    expect(create(pod(spec), account('runner', {}, { 'kubernetes.io/enforce-mountable-secrets': 'T' })).refusal?.message).toContain(
      'volume with secret.secretName="db" is not allowed',
    );
  });
});

describe('ServiceAccount (validation)', () => {
  it('refuses a pod whose account a webhook changed to one that does not exist', () => {
    const attributes = attributesFor('CREATE', 'pods', pod({ serviceAccountName: 'renamed' }));
    expect(serviceAccountValidate(attributes, fakeCluster())?.message).toBe(
      'pods "web" is forbidden: error looking up service account ns/renamed: serviceaccount "renamed" not found',
    );
    expect(serviceAccountValidate(attributes, fakeCluster(account('renamed')))).toBeUndefined();
  });

  it('refuses a pod a webhook left without an account', () => {
    expect(serviceAccountValidate(attributesFor('CREATE', 'pods', pod()), fakeCluster())?.message).toBe(
      'pods "web" is forbidden: no service account specified for pod ns/web',
    );
  });

  it('holds ephemeral containers added through the subresource to the account’s secrets', () => {
    const object = pod({ serviceAccountName: 'runner', ephemeralContainers: [{ name: 'debug', image: 'busybox', envFrom: [{ secretRef: { name: 'db' } }] }] });
    const attributes = attributesFor('UPDATE', 'pods', object, {
      subResource: 'ephemeralcontainers',
      oldObject: pod({ serviceAccountName: 'runner' }) as KubeObject,
    });
    // limitEphemeralContainerSecretReferences returns its secret errors bare (no NewForbidden): the
    // apiserver's ErrorToAPIStatus answers them as a 500 without a reason.
    expect(serviceAccountValidate(attributes, fakeCluster(enforcing('runner')))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'ephemeral container debug with envFrom referencing secret.secretName="db" is not allowed because service account runner does not reference that secret',
      code: 500,
    });
    const withEnv = pod({
      serviceAccountName: 'runner',
      ephemeralContainers: [{ name: 'debug', image: 'busybox', env: [{ name: 'PW', valueFrom: { secretKeyRef: { name: 'db', key: 'pw' } } }] }],
    });
    expect(
      serviceAccountValidate(
        attributesFor('UPDATE', 'pods', withEnv, { subResource: 'ephemeralcontainers', oldObject: pod({ serviceAccountName: 'runner' }) as KubeObject }),
        fakeCluster(enforcing('runner')),
      )?.message,
    ).toBe(
      'ephemeral container debug with envVar PW referencing secret.secretName="db" is not allowed because service account runner does not reference that secret',
    );
    expect(serviceAccountValidate(attributes, fakeCluster(enforcing('runner', { secrets: [{ name: 'db' }] })))).toBeUndefined();
    expect(serviceAccountValidate(attributes, fakeCluster(account('runner')))).toBeUndefined();
    // The account's absence is a Forbidden, as on create.
    expect(serviceAccountValidate(attributes, fakeCluster())?.message).toBe(
      'pods "web" is forbidden: error looking up service account ns/runner: serviceaccount "runner" not found',
    );
    const unnamed = attributesFor('UPDATE', 'pods', pod({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }), {
      subResource: 'ephemeralcontainers',
      oldObject: pod() as KubeObject,
    });
    expect(serviceAccountValidate(unnamed, fakeCluster())?.message).toBe('pods "web" is forbidden: no service account specified for pod ns/web');
  });

  it('reads the account a pod names through the deprecated serviceAccount field, as the v1 conversion does', () => {
    expect(serviceAccountValidate(attributesFor('CREATE', 'pods', pod({ serviceAccount: 'legacy' })), fakeCluster())?.message).toBe(
      'pods "web" is forbidden: error looking up service account ns/legacy: serviceaccount "legacy" not found',
    );
    expect(specOf(create(pod({ serviceAccount: 'legacy' }), account('legacy')))).toMatchObject({ serviceAccountName: 'legacy', serviceAccount: 'legacy' });
    expect(create(pod({ serviceAccount: 'legacy' })).refusal?.message).toBe(
      'pods "web" is forbidden: error looking up service account ns/legacy: serviceaccount "legacy" not found',
    );
  });

  it('refuses a mirror pod a webhook gave an account', () => {
    const mirror = pod({ serviceAccountName: 'default' }, { annotations: { 'kubernetes.io/config.mirror': 'hash' } });
    expect(serviceAccountValidate(attributesFor('CREATE', 'pods', mirror), fakeCluster())?.message).toBe(
      'pods "web" is forbidden: a mirror pod may not reference service accounts',
    );
  });

  it('holds a pod a webhook gave a secret to the accounts’ mountable secrets', () => {
    const injected = pod({ serviceAccountName: 'runner', containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'vault-token' } }] }] });
    expect(serviceAccountValidate(attributesFor('CREATE', 'pods', injected), fakeCluster(enforcing('runner')))?.message).toBe(
      'pods "web" is forbidden: container app with envFrom referencing secret.secretName="vault-token" is not allowed because service account runner does not reference that secret',
    );
  });

  it('finds no account for a request without a namespace, even one another namespace has', () => {
    const object = { ...pod({ serviceAccountName: 'builder' }), metadata: { name: 'web' } };
    expect(serviceAccountValidate(attributesFor('CREATE', 'pods', object), fakeCluster(account('builder')))?.message).toBe(
      'pods "web" is forbidden: error looking up service account /builder: serviceaccount "builder" not found',
    );
  });

  it('leaves other updates and other subresources alone', () => {
    expect(serviceAccountValidate(attributesFor('UPDATE', 'pods', pod({ serviceAccountName: 'ghost' })), fakeCluster())).toBeUndefined();
    expect(
      serviceAccountValidate(attributesFor('CREATE', 'pods', pod({ serviceAccountName: 'ghost' }), { subResource: 'binding' }), fakeCluster()),
    ).toBeUndefined();
  });
});
