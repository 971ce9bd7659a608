/**
 * A hand-written AdmissionRequest (suite files, `explain --review`, replay) filled in as kube-apiserver's
 * handlers fill a request before admission: the name a create takes from its object
 * (endpoints/handlers/create.go), the name and namespace the URL of any other request carries, the
 * request's namespace written into the object (rest.EnsureObjectNamespaceMatchesRequestNamespace), and
 * the body decoded and defaulted before the registry validates it (so a pod sent without a spec is
 * refused for its containers only).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, reviewFromRequest, type Harness } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';

interface Capture {
  calls: { webhook: string; body: { request: Record<string, unknown> & { name?: string; object: KubeObject | null; oldObject: KubeObject | null } } }[];
}
const capture = (file: string): Capture => JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-captures', file), 'utf8')) as Capture;

const POD = { kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' } };
const pod = (metadata: Record<string, unknown>, spec?: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata, ...(spec ? { spec } : {}) }) as KubeObject;
const CONTAINERS = { containers: [{ name: 'app', image: 'nginx:1.27' }] };

describe('the request name, as the handlers give it', () => {
  // Recorded on a real kube-apiserver v1.36.2: kubectl create POSTs to the collection, and webhooks see the object's name.
  it("a create takes the object's name (configmaps-create)", () => {
    const { name, ...sent } = capture('configmaps-create.json').calls[0]!.body.request;
    expect(name).toBe('x1');
    expect(reviewFromRequest(sent, 'r').attributes.name).toBe('x1');
  });

  it('a create of a generateName-only object has no name before the registry makes one (configmaps-create-generatename)', () => {
    const mutating = capture('configmaps-create-generatename.json').calls.find((c) => c.webhook === 'mutate.capture.local')!.body.request;
    expect(mutating.name).toBeUndefined();
    expect(reviewFromRequest(mutating, 'r').attributes.name).toBe('');
  });

  it('a delete is named after its old object (configmaps-delete)', () => {
    const { name, ...sent } = capture('configmaps-delete.json').calls[0]!.body.request;
    expect(reviewFromRequest(sent, 'r').attributes.name).toBe(name);
  });

  it('an update is named after its object, else its old object', () => {
    const old = pod({ name: 'web', namespace: 'prod' }, CONTAINERS);
    expect(
      reviewFromRequest({ operation: 'UPDATE', ...POD, object: pod({ name: 'web', namespace: 'prod' }, CONTAINERS), oldObject: old }, 'r').attributes.name,
    ).toBe('web');
    expect(reviewFromRequest({ operation: 'UPDATE', ...POD, object: pod({ namespace: 'prod' }, CONTAINERS), oldObject: old }, 'r').attributes.name).toBe('web');
  });

  it('a name given is kept, and a CONNECT (whose object is its options) takes none', () => {
    expect(reviewFromRequest({ operation: 'CREATE', ...POD, name: 'given', object: pod({ name: 'web' }) }, 'r').attributes.name).toBe('given');
    const connect = reviewFromRequest(
      { operation: 'CONNECT', ...POD, subResource: 'exec', namespace: 'prod', object: { kind: 'PodExecOptions', apiVersion: 'v1', command: ['sh'] } },
      'r',
    );
    expect(connect.attributes).toMatchObject({ name: '', namespace: 'prod' });
  });
});

describe("the request namespace and the object's", () => {
  it("a request without a namespace takes the object's (or the old object's)", () => {
    expect(reviewFromRequest({ operation: 'CREATE', ...POD, object: pod({ name: 'web', namespace: 'prod' }) }, 'r').attributes.namespace).toBe('prod');
    expect(reviewFromRequest({ operation: 'DELETE', ...POD, oldObject: pod({ name: 'web', namespace: 'prod' }) }, 'r').attributes).toMatchObject({
      name: 'web',
      namespace: 'prod',
    });
  });

  it("an object without a namespace is given the request's, in ObjectMeta's member order", () => {
    const created = reviewFromRequest({ operation: 'CREATE', ...POD, namespace: 'prod', object: pod({ labels: { app: 'web' }, generateName: 'web-' }) }, 'r');
    expect(JSON.stringify(created.attributes.object?.metadata)).toBe('{"generateName":"web-","namespace":"prod","labels":{"app":"web"}}');
    const bare = reviewFromRequest(
      { operation: 'UPDATE', ...POD, namespace: 'prod', name: 'web', object: { kind: 'Pod', apiVersion: 'v1', spec: CONTAINERS } },
      'r',
    );
    expect(Object.keys(bare.attributes.object!)).toEqual(['kind', 'apiVersion', 'metadata', 'spec']);
    expect(bare.attributes.object?.metadata).toEqual({ namespace: 'prod' });
  });

  it('an object in another namespace is left as sent (the chain refuses it with 400), and a cluster-scoped object loses its namespace', () => {
    const moved = reviewFromRequest({ operation: 'CREATE', ...POD, namespace: 'prod', object: pod({ name: 'web', namespace: 'dev' }) }, 'r');
    expect(moved.attributes.object?.metadata?.namespace).toBe('dev');
    const role = reviewFromRequest(
      {
        operation: 'CREATE',
        kind: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole' },
        resource: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' },
        object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader', namespace: 'prod' } },
      },
      'r',
    );
    expect(role.attributes).toMatchObject({ name: 'reader', namespace: '' });
    expect(role.attributes.object?.metadata).toEqual({ name: 'reader' });
    const namespace = reviewFromRequest(
      {
        operation: 'CREATE',
        kind: { group: '', version: 'v1', kind: 'Namespace' },
        resource: { group: '', version: 'v1', resource: 'namespaces' },
        object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
      },
      'r',
    );
    expect(namespace.attributes).toMatchObject({ name: 'team', namespace: 'team' });
  });
});

describe('through the chain', () => {
  let h: Harness;
  const MESH = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'mesh' },
    webhooks: [
      {
        name: 'sidecar.mesh.io',
        clientConfig: { url: 'https://mesh.example.com/mutate' },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
  beforeAll(async () => {
    h = await createHarness({ seed: 3, manifests: [MESH], stubs: { 'sidecar.mesh.io': { respond: { allowed: true } } }, namespaces: [{ name: 'prod' }] });
  });
  afterAll(() => h.close());
  const admit = (request: Record<string, unknown>) => h.admit(reviewFromRequest(request, 'case'));
  const sent = (result: Awaited<ReturnType<typeof admit>>) => result.trace.calls.find((c) => c.webhook === 'sidecar.mesh.io')?.outcome?.review.request;

  it('the webhook is sent the name a create took from its object', async () => {
    const result = await admit({ operation: 'CREATE', ...POD, namespace: 'prod', object: pod({ name: 'web', namespace: 'prod' }, CONTAINERS) });
    expect(result).toBeAllowed();
    expect(sent(result)).toMatchObject({ name: 'web', namespace: 'prod' });
  });

  // Pod validation on the decoded, defaulted body: restartPolicy, dnsPolicy, terminationGracePeriodSeconds
  // and the security context were filled in before any webhook ran (pkg/apis/core/v1 SetDefaults_PodSpec).
  it('a pod created without a spec reaches the webhook defaulted and is refused for its containers only', async () => {
    const result = await admit({ operation: 'CREATE', ...POD, object: pod({ name: 'web', namespace: 'prod' }) });
    expect(sent(result)?.object?.spec).toMatchObject({
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    });
    expect(result.status).toMatchObject({ code: 422, reason: 'Invalid', message: 'Pod "web" is invalid: spec.containers: Required value' });
    expect(result.status?.details?.causes).toEqual([{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }]);
  });

  it('a pod updated without a spec: the containers it lacks, and (when the stored pod had some) the containers it removed', async () => {
    const bare = pod({ name: 'web', namespace: 'prod' });
    const same = await admit({ operation: 'UPDATE', ...POD, object: bare, oldObject: bare });
    expect(same.status?.message).toBe('Pod "web" is invalid: spec.containers: Required value');
    const emptied = await admit({ operation: 'UPDATE', ...POD, object: bare, oldObject: pod({ name: 'web', namespace: 'prod' }, CONTAINERS) });
    expect(emptied.status?.message).toBe(
      'Pod "web" is invalid: [spec.containers: Required value, spec.containers: Forbidden: pod updates may not add or remove containers]',
    );
  });

  it("an object in another namespace than the request's is refused with kube's 400", async () => {
    const result = await admit({ operation: 'CREATE', ...POD, namespace: 'prod', object: pod({ name: 'web', namespace: 'dev' }, CONTAINERS) });
    expect(result.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('a pod updated with a spec that lists its containers only is valid', async () => {
    const result = await admit({
      operation: 'UPDATE',
      ...POD,
      object: pod({ name: 'web', namespace: 'prod', labels: { a: 'b' } }, CONTAINERS),
      oldObject: pod({ name: 'web', namespace: 'prod' }, CONTAINERS),
    });
    expect(result).toBeAllowed();
    expect(sent(result)).toMatchObject({ name: 'web', operation: 'UPDATE' });
  });

  it('a Deployment created without a spec: its defaulted template is validated (selector, labels, containers)', async () => {
    const result = await admit({
      operation: 'CREATE',
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      object: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'prod' } },
    });
    expect(sent(result)).toMatchObject({
      name: 'web',
      namespace: 'prod',
      object: { spec: { replicas: 1, template: { metadata: {}, spec: { restartPolicy: 'Always' } } } },
    });
    expect(result.status?.message).toBe(
      'Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`, spec.template.spec.containers: Required value]',
    );
  });
});
