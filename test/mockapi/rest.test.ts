import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, configMap, objectOf } from './client';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 3, namespaces: [{ name: 'team-a', labels: { owner: 'alice' } }] });
});
afterAll(() => api.close());

const CM = '/api/v1/namespaces/team-a/configmaps';

describe('create', () => {
  it('stores the object with uid, resourceVersion and creationTimestamp, and answers 201 with it', async () => {
    const reply = await call(api, 'POST', CM, configMap('created', 'team-a', { labels: { app: 'web' } }));
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'created',
        namespace: 'team-a',
        uid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        resourceVersion: expect.stringMatching(/^\d+$/),
        creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        labels: { app: 'web' },
        // The writer owns what it created; with no fieldManager the manager is the User-Agent's first word, and
        // fetch intercepted in process carries none (undici adds it only on the wire), so it is `unknown`.
        managedFields: [
          {
            manager: 'unknown',
            operation: 'Update',
            apiVersion: 'v1',
            time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
          },
        ],
      },
      data: { k: 'v' },
    });
    expect(await call(api, 'GET', `${CM}/created`)).toMatchObject({ status: 200, body: reply.body });
  });

  it('takes the namespace from the path when the body has none', async () => {
    const { metadata: _metadata, ...body } = configMap('unused');
    const reply = await call(api, 'POST', CM, { ...body, metadata: { name: 'from-path' } });
    expect(objectOf(reply).metadata?.namespace).toBe('team-a');
  });

  it('generates a name from generateName', async () => {
    const reply = await call(api, 'POST', CM, { ...configMap(''), metadata: { generateName: 'gen-' } });
    expect(reply.status).toBe(201);
    expect(objectOf(reply).metadata).toMatchObject({ name: expect.stringMatching(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/), generateName: 'gen-' });
  });

  it('increases resourceVersion with every write', async () => {
    const first = objectOf(await call(api, 'POST', CM, configMap('rv-1')));
    const second = objectOf(await call(api, 'POST', CM, configMap('rv-2')));
    expect(Number(second.metadata?.resourceVersion)).toBeGreaterThan(Number(first.metadata?.resourceVersion));
  });

  it('answers 409 AlreadyExists for a name in use', async () => {
    await call(api, 'POST', CM, configMap('twice'));
    const reply = await call(api, 'POST', CM, configMap('twice'));
    expect(reply).toMatchObject({ status: 409 });
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "twice" already exists',
      reason: 'AlreadyExists',
      details: { name: 'twice', kind: 'configmaps' },
      code: 409,
    });
  });

  it('answers 404 for a namespace that does not exist', async () => {
    const reply = await call(api, 'POST', '/api/v1/namespaces/nowhere/configmaps', configMap('x', 'nowhere'));
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'namespaces "nowhere" not found',
      reason: 'NotFound',
      details: { name: 'nowhere', kind: 'namespaces' },
      code: 404,
    });
  });

  it('answers 422 Invalid without a name, and for a name that is not a DNS subdomain', async () => {
    const { metadata: _metadata, ...nameless } = configMap('unused');
    expect((await call(api, 'POST', CM, { ...nameless, metadata: {} })).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      reason: 'Invalid',
      details: {
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }],
      },
      code: 422,
    });
    const detail =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    expect((await call(api, 'POST', CM, configMap('Bad_Name'))).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${detail}`,
      reason: 'Invalid',
      details: {
        name: 'Bad_Name',
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${detail}`, field: 'metadata.name' }],
      },
      code: 422,
    });
  });

  it('answers 400 for a body in another namespace or API version, and for malformed JSON', async () => {
    expect((await call(api, 'POST', CM, configMap('elsewhere', 'default'))).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
      reason: 'BadRequest',
      code: 400,
    });
    expect(objectOf(await call(api, 'POST', CM, { ...configMap('v'), apiVersion: 'apps/v1' })).message).toBe(
      'the API version in the data (apps/v1) does not match the expected API version (v1)',
    );
    expect(objectOf(await call(api, 'POST', CM, '{"kind": ')).message).toBe("couldn't get version/kind; json parse error: unexpected end of JSON input");
  });
});

describe('get and list', () => {
  it('answers 404 NotFound with details {name, kind}, and {name, group, kind} in a named group', async () => {
    expect((await call(api, 'GET', `${CM}/missing`)).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' },
      code: 404,
    });
    expect((await call(api, 'GET', '/apis/apps/v1/namespaces/team-a/deployments/missing')).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', group: 'apps', kind: 'deployments' },
      code: 404,
    });
  });

  it('lists a namespace, or every namespace, as a List whose items carry no kind', async () => {
    await call(api, 'POST', '/api/v1/namespaces/default/configmaps', configMap('in-default', 'default'));
    const inTeam = objectOf(await call(api, 'GET', CM));
    expect(inTeam).toMatchObject({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } });
    const items = inTeam.items as { kind?: string; metadata: { name: string; namespace: string } }[];
    expect(items.every((item) => item.metadata.namespace === 'team-a' && item.kind === undefined)).toBe(true);
    const all = objectOf(await call(api, 'GET', '/api/v1/configmaps')).items as { metadata: { namespace: string; name: string } }[];
    expect(all.map((item) => item.metadata.namespace)).toEqual([...all.map((item) => item.metadata.namespace)].sort());
    expect(all.some((item) => item.metadata.name === 'in-default')).toBe(true);
  });

  it('serves cluster-scoped resources and named groups', async () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'system:reader' }, rules: [] };
    expect((await call(api, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', role)).status).toBe(201);
    expect(objectOf(await call(api, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:reader')).metadata).not.toHaveProperty('namespace');
    const names = (objectOf(await call(api, 'GET', '/api/v1/namespaces')).items as { metadata: { name: string } }[]).map((n) => n.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team-a']));
  });

  it('answers paths no resource serves with 404, and methods a path does not serve with 405', async () => {
    const notFound = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    };
    expect((await call(api, 'GET', '/api/v1/namespaces/team-a/widgets')).body).toEqual(notFound);
    // A group no API serves never reaches go-restful: the mux answers with its plain-text page.
    expect((await call(api, 'GET', '/apis/example.com/v1/things')).body).toBe('404 page not found\n');
    expect((await call(api, 'DELETE', '/api/v1/namespaces')).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      details: {},
      code: 405,
    });
  });
});

describe('update', () => {
  it('replaces the object, keeping uid and creationTimestamp, with a new resourceVersion', async () => {
    const created = objectOf(await call(api, 'POST', CM, configMap('updated')));
    const reply = await call(api, 'PUT', `${CM}/updated`, { ...created, data: { k: 'v2' } });
    expect(reply.status).toBe(200);
    const updated = objectOf(reply);
    expect(updated.data).toEqual({ k: 'v2' });
    expect(updated.metadata).toMatchObject({ uid: created.metadata?.uid, creationTimestamp: created.metadata?.creationTimestamp });
    expect(updated.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
  });

  it('answers 409 Conflict for a stale resourceVersion', async () => {
    const created = objectOf(await call(api, 'POST', CM, configMap('stale')));
    // A change moves the version on (a PUT that changes nothing writes nothing and keeps it, as etcd3's store does).
    await call(api, 'PUT', `${CM}/stale`, { ...created, data: { k: 'changed' } });
    expect((await call(api, 'PUT', `${CM}/stale`, created)).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'stale', kind: 'configmaps' },
      code: 409,
    });
  });

  it('answers 404 for an object that does not exist and 400 for a body named otherwise', async () => {
    expect((await call(api, 'PUT', `${CM}/ghost`, configMap('ghost'))).status).toBe(404);
    expect(objectOf(await call(api, 'PUT', `${CM}/one`, configMap('other'))).message).toBe(
      'the name of the object (other) does not match the name on the URL (one)',
    );
  });
});

describe('delete', () => {
  it('removes the object and answers a Success Status naming it', async () => {
    const created = objectOf(await call(api, 'POST', CM, configMap('doomed')));
    expect((await call(api, 'DELETE', `${CM}/doomed`)).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'doomed', kind: 'configmaps', uid: created.metadata?.uid },
    });
    expect((await call(api, 'GET', `${CM}/doomed`)).status).toBe(404);
  });

  it('answers a deleted pod with the pod', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
    await call(api, 'POST', '/api/v1/namespaces/team-a/pods', pod);
    expect(objectOf(await call(api, 'DELETE', '/api/v1/namespaces/team-a/pods/p'))).toMatchObject({ kind: 'Pod', metadata: { name: 'p' } });
  });

  it('deletes a collection by selector and answers the list of what it deleted', async () => {
    for (const name of ['dc-1', 'dc-2', 'dc-keep'])
      await call(api, 'POST', CM, configMap(name, 'team-a', { labels: { dc: name === 'dc-keep' ? 'no' : 'yes' } }));
    const reply = objectOf(await call(api, 'DELETE', `${CM}?labelSelector=dc%3Dyes`));
    expect(reply.kind).toBe('ConfigMapList');
    expect((reply.items as { metadata: { name: string } }[]).map((i) => i.metadata.name)).toEqual(['dc-1', 'dc-2']);
    expect((await call(api, 'GET', `${CM}/dc-keep`)).status).toBe(200);
    expect((await call(api, 'GET', `${CM}/dc-1`)).status).toBe(404);
  });

  it('deletes a namespace with everything in it', async () => {
    await call(api, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'short-lived' } });
    await call(api, 'POST', '/api/v1/namespaces/short-lived/configmaps', configMap('inside', 'short-lived'));
    const reply = objectOf(await call(api, 'DELETE', '/api/v1/namespaces/short-lived'));
    expect(reply).toMatchObject({ kind: 'Namespace', status: { phase: 'Terminating' }, metadata: { deletionTimestamp: expect.any(String) } });
    expect((await call(api, 'GET', '/api/v1/namespaces/short-lived/configmaps/inside')).status).toBe(404);
    expect(api.namespaces.labels('short-lived')).toBeUndefined();
  });
});

describe('dryRun=All', () => {
  it('answers a create as if written, without storing it or taking a resourceVersion', async () => {
    const reply = await call(api, 'POST', `${CM}?dryRun=All`, configMap('dry'));
    expect(reply.status).toBe(201);
    expect(objectOf(reply).metadata).toMatchObject({ name: 'dry', uid: expect.any(String), creationTimestamp: expect.any(String) });
    expect(objectOf(reply).metadata).not.toHaveProperty('resourceVersion');
    expect((await call(api, 'GET', `${CM}/dry`)).status).toBe(404);
  });

  it('answers update, patch and delete as if done, and leaves the object as it was', async () => {
    const created = objectOf(await call(api, 'POST', CM, configMap('kept')));
    const updated = objectOf(await call(api, 'PUT', `${CM}/kept?dryRun=All`, { ...created, data: { k: 'changed' } }));
    expect(updated.data).toEqual({ k: 'changed' });
    expect(updated.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const patched = objectOf(await call(api, 'PATCH', `${CM}/kept?dryRun=All`, { data: { extra: '1' } }, 'application/merge-patch+json'));
    expect(patched.data).toEqual({ k: 'v', extra: '1' });
    expect((await call(api, 'DELETE', `${CM}/kept`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] })).status).toBe(200);
    expect((await call(api, 'GET', `${CM}/kept`)).body).toEqual(created);
  });

  it('refuses a dryRun value other than All', async () => {
    expect((await call(api, 'POST', `${CM}?dryRun=Server`, configMap('x'))).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Server"]: supported values: "All"',
      reason: 'Invalid',
      details: {
        group: 'meta.k8s.io',
        kind: 'CreateOptions',
        causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: ["Server"]: supported values: "All"', field: 'dryRun' }],
      },
      code: 422,
    });
  });
});

describe('authentication', () => {
  it('answers an unknown token with 401, and serves requests without one as system:anonymous', async () => {
    const wrong = await fetch(`${api.url}${CM}`, { headers: { Authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
    expect((await fetch(`${api.url}${CM}`)).status).toBe(200);
  });
});
