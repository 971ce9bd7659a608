// Lists as kube-apiserver answers them: list-pagination and kubectl-get-watch (test/mockapi/fixtures, recorded on a
// real kube-apiserver v1.36.2), resourceVersion and resourceVersionMatch, continue tokens, and compaction's 410s.
import { startMockApi, type MockApi } from '../../../lib/mockapi';
import { comparable, openWatch, recording, request } from './watch-client';

jest.setTimeout(60_000);

const configMap = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { n: name } });
const decoded = (token: string): string => Buffer.from(token, 'base64url').toString();

let api: MockApi;
beforeEach(async () => {
  api = await startMockApi({ seed: 29, namespaces: [{ name: 'o4-err2' }, { name: 'o4-kubectl' }, { name: 'other' }] });
});
afterEach(() => api.close());

describe('list-pagination', () => {
  it("pages over one snapshot with kube's continue tokens and remaining counts; a bad token is a 400 with Go's text", async () => {
    const recorded = recording('list-pagination');
    for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) api.store.put(configMap('o4-err2', name));
    const rv = api.store.resourceVersion;
    let token = '';
    for (const step of recorded.steps.slice(0, 3)) {
      const path = step.request.path.includes('continue=') ? `/api/v1/namespaces/o4-err2/configmaps?limit=2&continue=${token}` : step.request.path;
      // A write between pages changes nothing in them: every page reads the first one's snapshot.
      if (token) api.store.put(configMap('o4-err2', 'p0'));
      const reply = await request(api, 'GET', path);
      expect(reply.status).toBe(200);
      const withoutToken = (body: { metadata: object }) => comparable({ ...body, metadata: { ...body.metadata, continue: undefined } });
      expect(withoutToken(reply.body)).toEqual(withoutToken(step.response.body));
      expect(reply.body.metadata.resourceVersion).toBe(rv);
      const recordedToken = step.response.body.metadata.continue as string | undefined;
      token = reply.body.metadata.continue;
      if (recordedToken === undefined) expect(token).toBeUndefined();
      else expect(decoded(token)).toBe(decoded(recordedToken).replace('"rv":721', `"rv":${rv}`));
    }
    const bad = recorded.steps[3]!;
    const refused = await request(api, 'GET', bad.request.path);
    expect(refused).toEqual({ status: 400, body: bad.response.body });
  });

  it('counts what is left only without selectors, and pages through selected objects', async () => {
    for (const name of ['a', 'b', 'c', 'd'])
      api.store.put({ ...configMap('o4-err2', name), metadata: { name, namespace: 'o4-err2', labels: { keep: name === 'b' ? 'no' : 'yes' } } });
    const first = await request(api, 'GET', '/api/v1/namespaces/o4-err2/configmaps?limit=1&labelSelector=keep%3Dyes');
    expect(first.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a']);
    expect(first.body.metadata.remainingItemCount).toBeUndefined();
    const second = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?limit=2&labelSelector=keep%3Dyes&continue=${first.body.metadata.continue}`);
    expect(second.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['c', 'd']);
    expect(second.body.metadata.continue).toBeUndefined();
  });

  it('names namespace and name in the token of a list across namespaces', async () => {
    api.store.put(configMap('o4-err2', 'x'));
    api.store.put(configMap('other', 'y'));
    const first = await request(api, 'GET', '/api/v1/configmaps?limit=1');
    expect(JSON.parse(decoded(first.body.metadata.continue)).start).toBe('/o4-err2/x\u0000');
    const second = await request(api, 'GET', `/api/v1/configmaps?limit=1&continue=${first.body.metadata.continue}`);
    expect(second.body.items[0].metadata.name).toBe('y');
  });

  it.each([
    ['not-a-valid-token', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 16'],
    ['e30=', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 3'],
    [Buffer.from('{').toString('base64url'), 'invalid continue token: continue key is not valid: unexpected end of JSON input'],
    [
      Buffer.from('{"v":"x","rv":1,"start":"/a"}').toString('base64url'),
      'invalid continue token: continue key is not valid: server does not recognize this encoded version x',
    ],
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"/a"}').toString('base64url'),
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    ],
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":""}').toString('base64url'),
      'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
    ],
    [Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"/../a"}').toString('base64url'), 'invalid continue token: continue key is not valid: /../a'],
    [
      Buffer.from('{"v":"meta.k8s.io/v1","rv":"1","start":"/a"}').toString('base64url'),
      'invalid continue token: continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64',
    ],
  ])("refuses the token %s with storage/continue.go's text", async (token, message) => {
    const reply = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?limit=1&continue=${token}`);
    expect(reply).toEqual({
      status: 400,
      body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 },
    });
  });

  it('refuses a resourceVersion beside a continue token', async () => {
    const reply = await request(api, 'GET', '/api/v1/namespaces/o4-err2/configmaps?resourceVersion=5&continue=x');
    expect(reply.body.message).toBe('specifying resource version is not allowed when using continue');
  });
});

describe('resourceVersion and resourceVersionMatch', () => {
  it('reads the state at an Exact version, and the latest for NotOlderThan, no version or 0', async () => {
    api.store.put(configMap('o4-err2', 'a'));
    const before = api.store.resourceVersion;
    api.store.put(configMap('o4-err2', 'b'));
    const names = (body: { items: { metadata: { name: string } }[] }) => body.items.map((i) => i.metadata.name);
    const exact = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?resourceVersion=${before}&resourceVersionMatch=Exact`);
    expect([names(exact.body), exact.body.metadata.resourceVersion]).toEqual([['a'], before]);
    // Legacy: a version with a limit is read exactly.
    const legacy = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?resourceVersion=${before}&limit=10`);
    expect(names(legacy.body)).toEqual(['a']);
    for (const query of [`resourceVersion=${before}&resourceVersionMatch=NotOlderThan`, `resourceVersion=${before}`, 'resourceVersion=0', '']) {
      const latest = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?${query}`);
      expect([names(latest.body), latest.body.metadata.resourceVersion]).toEqual([['a', 'b'], api.store.resourceVersion]);
    }
  });

  it("answers a version the store has not reached with storage's Too large resource version", async () => {
    const ahead = Number(api.store.resourceVersion) + 10;
    const reply = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?resourceVersion=${ahead}&resourceVersionMatch=NotOlderThan`);
    expect(reply).toEqual({
      status: 504,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Timeout: Too large resource version: ${ahead}, current: ${api.store.resourceVersion}`,
        reason: 'Timeout',
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
        code: 504,
      },
    });
  });

  it.each([
    ['resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
    ['resourceVersion=1&resourceVersionMatch=Newest', 'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
    ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    [
      'watch=1&resourceVersion=3&resourceVersionMatch=NotOlderThan',
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    ],
  ])("refuses %s with ValidateListOptions' 422", async (query, cause) => {
    const reply = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?${query}`);
    expect(reply.status).toBe(422);
    expect(reply.body.message).toBe(`ListOptions.meta.k8s.io "" is invalid: ${cause}`);
    expect(reply.body.details).toEqual({ group: 'meta.k8s.io', kind: 'ListOptions', causes: [expect.objectContaining({ field: cause.split(':')[0] })] });
  });
});

describe('compaction: api.store.compact() forgets history, as an apiserver restart does', () => {
  it('answers a watch from before it with an ERROR event in a 200 stream, and exact lists with 410', async () => {
    api.store.put(configMap('o4-err2', 'a'));
    const old = api.store.resourceVersion;
    api.store.put(configMap('o4-err2', 'b'));
    api.store.compact();
    const compacted = api.store.resourceVersion;
    const watch = await openWatch(api, `/api/v1/namespaces/o4-err2/configmaps?watch=1&resourceVersion=${old}`, 'msw');
    await watch.ended;
    expect(watch.status).toBe(200);
    expect(watch.events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `too old resource version: ${old} (${compacted})`,
          reason: 'Expired',
          code: 410,
        },
      },
    ]);
    const list = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?resourceVersion=${old}&resourceVersionMatch=Exact`);
    expect(list).toEqual({
      status: 410,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'The resourceVersion for the provided list is too old.',
        reason: 'Expired',
        code: 410,
      },
    });
    // From the compacted version itself, nothing is missing.
    const fromCompacted = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?resourceVersion=${compacted}&resourceVersionMatch=Exact`);
    expect(fromCompacted.status).toBe(200);
  });

  it('answers a continue token from before it with 410 and a token to go on from the latest state', async () => {
    for (const name of ['a', 'b', 'c']) api.store.put(configMap('o4-err2', name));
    const first = await request(api, 'GET', '/api/v1/namespaces/o4-err2/configmaps?limit=1');
    api.store.put(configMap('o4-err2', 'a2'));
    api.store.compact();
    const reply = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?limit=1&continue=${first.body.metadata.continue}`);
    expect(reply.status).toBe(410);
    expect(reply.body.message).toMatch(
      /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token/,
    );
    expect(JSON.parse(decoded(reply.body.metadata.continue))).toEqual({ v: 'meta.k8s.io/v1', rv: -1, start: '/a\u0000' });
    const rest = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?limit=5&continue=${reply.body.metadata.continue}`);
    expect(rest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['a2', 'b', 'c']);
  });

  it('refuses a version it never reached', () => {
    expect(() => api.store.compact(Number(api.store.resourceVersion) + 1)).toThrow(/compact: resourceVersion must be a whole number from 0 to the current/);
  });
});

describe('kubectl-get-watch', () => {
  it('answers kubectl get -w: a list with limit=500, then a watch from its resourceVersion that carries the new object', async () => {
    const { requests } = recording('kubectl-get-watch').kubectl!;
    const [list, watchRequest] = requests.filter((r) => r.url.includes('/configmaps'));
    expect(list!.url).toBe('/api/v1/namespaces/o4-kubectl/configmaps?limit=500');
    const listed = await request(api, 'GET', list!.url);
    expect(listed.status).toBe(200);
    const watchUrl = watchRequest!.url.replace(/resourceVersion=\d+/, `resourceVersion=${listed.body.metadata.resourceVersion}`);
    const watch = await openWatch(api, watchUrl, 'msw', { Accept: watchRequest!.accept });
    expect(`${watch.status} OK`).toBe(watchRequest!.status);
    await request(api, 'POST', '/api/v1/namespaces/o4-kubectl/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'wcm' },
      data: { a: 'b' },
    });
    const [event] = await watch.next(1);
    // kubectl asks for Tables: the object comes as a Table of one row (test/mockapi/tables.test.ts has the details).
    expect(event).toMatchObject({
      type: 'ADDED',
      object: {
        kind: 'Table',
        rows: [{ cells: ['wcm', 1, expect.any(String)], object: { kind: 'PartialObjectMetadata', metadata: { name: 'wcm', namespace: 'o4-kubectl' } } }],
      },
    });
    watch.abort();
  });
});

describe('the watch parameter', () => {
  it.each(['watch=True', 'watch', 'watch=yes', 'watch=1', 'watch=true'])('%s watches (apimachinery reads any value but 0 and false as true)', async (query) => {
    const watch = await openWatch(api, `/api/v1/namespaces/o4-err2/configmaps?${query}&timeoutSeconds=1`, 'msw');
    expect(watch.headers['content-length']).toBeUndefined();
    expect(api.watches.size).toBe(1);
    watch.abort();
  });

  it.each(['watch=0', 'watch=false', 'watch=False'])('%s lists', async (query) => {
    const reply = await request(api, 'GET', `/api/v1/namespaces/o4-err2/configmaps?${query}`);
    expect(reply.body.kind).toBe('ConfigMapList');
  });
});
