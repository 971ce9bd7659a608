import fs from 'node:fs';
import path from 'node:path';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { kubeYaml } from '../../lib/mockapi/yaml-encoding';
import { yaml } from '../../lib/yaml';
import { freezeDate } from './date-clock';

/*
 * Encodings as kube-apiserver v1.36.2 answered them (fixtures recorded on a real cluster, in
 * test/mockapi/fixtures/apiserver-api): Accept negotiation and its 406 texts, Content-Types a body may not come
 * in, and protobuf request bodies, which kubectl sends for built-in kinds.
 */

interface Step {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { code: number; headers: Record<string, string>; body?: unknown; bodyRaw?: string };
}
const fixture = <T = { steps: Step[] }>(name: string): T =>
  JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'apiserver-api', `${name}.json`), 'utf8')) as T;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 4, namespaces: [{ name: 'o4-err2' }] });
  for (const name of ['p1', 'p2', 'p3', 'p4'])
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'o4-err2' }, data: { n: name } });
}, 60_000);
afterAll(() => api.close());

/** The mock API's uid of the object at a path, or undefined when there is none. */
async function uidAt(target: string): Promise<string | undefined> {
  const response = await fetch(`${api.url}${target}`, { headers: { Authorization: `Bearer ${api.token}` } });
  const body = (await response.json()) as { metadata?: { uid?: string } };
  return response.ok ? body.metadata?.uid : undefined;
}

async function replay(step: Step): Promise<{ response: Response; text: string }> {
  const { method, path: target, headers, body } = step.request;
  const response = await fetch(`${api.url}${target}`, {
    method,
    headers: { Authorization: `Bearer ${api.token}`, ...headers },
    ...(body !== undefined && body !== null ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  return { response, text: await response.text() };
}

describe('error-responses', () => {
  const steps = fixture('error-responses').steps;
  const byRequest = (method: string, target: string, accept?: string): Step =>
    steps.find((s) => s.request.method === method && s.request.path === target && (accept === undefined || s.request.headers.Accept === accept)) as Step;

  // Left out, with why: the Table (16) and the step made as user alice (17) are replayed below, the Table
  // with a clock the test controls (its Age cell and the object's timestamps) and alice with an API that
  // authenticates her.
  const OTHER_ITEMS = new Set([16, 17]);
  // The uid precondition's Conflict (4) names the uid in record: the mock API's own for that object.
  const RECORD_UID = /in record \(([0-9a-f-]+)\)/;

  it("replays the steps in order: status, Content-Type and body (uids, resourceVersions and timestamps are the mock API's own)", async () => {
    const volatile = (body: unknown): unknown => {
      if (typeof body !== 'object' || body === null) return body;
      const copy = JSON.parse(JSON.stringify(body)) as { metadata?: Record<string, unknown>; details?: Record<string, unknown> };
      for (const key of ['uid', 'resourceVersion', 'creationTimestamp']) delete copy.metadata?.[key];
      delete copy.details?.uid;
      return copy;
    };
    for (const [index, step] of steps.entries()) {
      if (OTHER_ITEMS.has(index)) continue;
      const target = step.request.path.split('?')[0] as string;
      const recordUid = step.request.method === 'DELETE' ? await uidAt(target) : undefined;
      const { response, text } = await replay(step);
      const where = `${index}: ${step.request.method} ${step.request.path}`;
      expect([where, response.status, response.headers.get('content-type')]).toEqual([where, step.response.code, step.response.headers['content-type']]);
      expect([where, response.headers.get('warning')]).toEqual([where, step.response.headers.warning ?? null]);
      if (step.request.headers.Accept === 'application/yaml') continue; // compared in the YAML test below
      let expected = step.response.body as { message?: string } | undefined;
      if (expected?.message && recordUid) expected = { ...expected, message: expected.message.replace(RECORD_UID, `in record (${recordUid})`) };
      if (step.response.bodyRaw !== undefined) expect([where, text]).toEqual([where, step.response.bodyRaw]);
      else expect([where, volatile(JSON.parse(text))]).toEqual([where, volatile(expected)]);
    }
  });

  it("a user the authorizer refuses: 403 with kube's sentence", async () => {
    const step = steps[17] as Step;
    const alice = await startMockApi({
      seed: 5,
      namespaces: [{ name: 'o4-err2' }],
      user: { username: 'alice', groups: ['system:authenticated'] },
      authorizer: () => ({ decision: 'noOpinion' }),
    });
    try {
      alice.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p4', namespace: 'o4-err2' }, data: { n: 'p4' } });
      const response = await fetch(`${alice.url}${step.request.path}`, { headers: { Authorization: `Bearer ${alice.token}`, ...step.request.headers } });
      expect([response.status, await response.json()]).toEqual([403, step.response.body]);
    } finally {
      await alice.close();
    }
  });

  it("a Table (`as=Table;v=v1;g=meta.k8s.io`): kube's columns and descriptions, the cells, the object's PartialObjectMetadata, byte for byte", async () => {
    const step = steps[16] as Step;
    type Table = {
      metadata: { resourceVersion: string };
      rows: { object: { metadata: { uid: string; resourceVersion: string; creationTimestamp: string } } }[];
    };
    const recorded = step.response.body as Table;
    const recordedMeta = recorded.rows[0]?.object.metadata as Table['rows'][number]['object']['metadata'];
    // The recorded object was created at creationTimestamp and read in the same second: Age 0s.
    const clock = freezeDate(recordedMeta.creationTimestamp);
    const own = await startMockApi({ seed: 4, namespaces: [{ name: 'o4-err2' }] });
    try {
      // Created as the recorder created it: a POST whose client sent no User-Agent (field manager `unknown`).
      const created = await fetch(`${own.url}/api/v1/namespaces/o4-err2/configmaps?fieldManager=unknown`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${own.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p4', namespace: 'o4-err2' }, data: { n: 'p4' } }),
      });
      const mine = ((await created.json()) as { metadata: { uid: string; resourceVersion: string } }).metadata;
      const response = await fetch(`${own.url}${step.request.path}`, { headers: { Authorization: `Bearer ${own.token}`, ...step.request.headers } });
      const text = await response.text();
      // uid and resourceVersion are the mock API's own; every other byte is kube's (less the trailing newline).
      const expected = JSON.stringify(recorded)
        .replaceAll(`"uid":"${recordedMeta.uid}"`, `"uid":"${mine.uid}"`)
        .replaceAll(`"resourceVersion":"${recorded.metadata.resourceVersion}"`, `"resourceVersion":"${mine.resourceVersion}"`);
      expect([response.status, response.headers.get('content-type')]).toEqual([step.response.code, step.response.headers['content-type']]);
      expect(text).toBe(expected);
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(expected)));
    } finally {
      await own.close();
      clock.restore();
    }
  });

  it('an object asked for as YAML is written as kube writes YAML', async () => {
    const step = byRequest('GET', '/api/v1/namespaces/o4-err2/configmaps/p4', 'application/yaml');
    // The recorded object, re-encoded: keys sorted, sequences flush with their key, YAML 1.1 look-alikes quoted, `.:` plain.
    expect(kubeYaml(yaml().parse(step.response.bodyRaw as string))).toBe(step.response.bodyRaw);
    const { response, text } = await replay(step);
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/yaml']);
    // uid, resourceVersion and creationTimestamp are the mock's own; managedFields are not kept by the mock API yet.
    const {
      uid: _u,
      resourceVersion: _r,
      creationTimestamp: _c,
      managedFields: _m,
      ...recordedMeta
    } = (yaml().parse(step.response.bodyRaw as string) as { metadata: Record<string, unknown> }).metadata;
    const served = yaml().parse(text) as { metadata: Record<string, unknown> };
    expect({ ...served, metadata: { ...served.metadata, uid: undefined, resourceVersion: undefined, creationTimestamp: undefined } }).toEqual({
      ...(yaml().parse(step.response.bodyRaw as string) as object),
      metadata: { ...recordedMeta, uid: undefined, resourceVersion: undefined, creationTimestamp: undefined },
    });
  });

  it('a protobuf Accept, or a Table in protobuf, with JSON after it is answered in JSON', async () => {
    for (const accept of [
      'application/vnd.kubernetes.protobuf,application/json',
      'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json',
      'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io,application/json',
      '*/*',
      'application/json, */*',
    ]) {
      const response = await fetch(`${api.url}/api/v1/namespaces/o4-err2/configmaps/p4`, { headers: { Authorization: `Bearer ${api.token}`, Accept: accept } });
      expect([accept, response.status, response.headers.get('content-type')]).toEqual([accept, 200, 'application/json']);
    }
  });
});

/** The protobuf wire format, enough to write what client-go's typed clients send. */
const proto = {
  varint(value: number): number[] {
    const bytes: number[] = [];
    while (value > 0x7f) {
      bytes.push((value & 0x7f) | 0x80);
      value >>>= 7;
    }
    return [...bytes, value];
  },
  bytes(field: number, content: number[]): number[] {
    return [...proto.varint((field << 3) | 2), ...proto.varint(content.length), ...content];
  },
  string(field: number, value: string): number[] {
    return proto.bytes(field, [...Buffer.from(value, 'utf8')]);
  },
  /** The envelope of apimachinery's protobuf serializer: "k8s\0" and a runtime.Unknown. */
  envelope(apiVersion: string, kind: string, raw: number[]): Uint8Array {
    const typeMeta = [...proto.string(1, apiVersion), ...proto.string(2, kind)];
    return new Uint8Array([0x6b, 0x38, 0x73, 0x00, ...proto.bytes(1, typeMeta), ...proto.bytes(2, raw), ...proto.string(3, ''), ...proto.string(4, '')]);
  },
};

describe('protobuf request bodies', () => {
  it('kubectl-auth-can-i: every request kubectl makes is answered as recorded, the protobuf SelfSubjectAccessReview with 201', async () => {
    const { kubectl } = fixture<{ kubectl: { requests: { method: string; url: string; accept: string; contentType: string | null; status: string }[] } }>(
      'kubectl-auth-can-i',
    );
    // `kubectl auth can-i create pods`: spec.resourceAttributes {namespace: default, verb: create, resource: pods}.
    const attributes = [
      ...proto.string(1, 'default'),
      ...proto.string(2, 'create'),
      ...proto.string(3, ''),
      ...proto.string(4, ''),
      ...proto.string(5, 'pods'),
      ...proto.string(6, ''),
      ...proto.string(7, ''),
    ];
    const review = proto.envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', [
      ...proto.bytes(1, []),
      ...proto.bytes(2, proto.bytes(1, attributes)),
      ...proto.bytes(3, [...proto.varint(8), 0]),
    ]);
    for (const request of kubectl.requests) {
      const response = await fetch(`${api.url}${request.url}`, {
        method: request.method,
        headers: { Authorization: `Bearer ${api.token}`, Accept: request.accept, ...(request.contentType ? { 'Content-Type': request.contentType } : {}) },
        ...(request.method === 'POST' ? { body: review } : {}),
      });
      const body = (await response.json()) as { kind?: string; status?: { allowed?: boolean }; spec?: unknown };
      expect([request.url, response.status]).toEqual([request.url, Number(request.status.split(' ')[0])]);
      if (request.method === 'POST') {
        expect(body.kind).toBe('SelfSubjectAccessReview');
        expect(body.spec).toEqual({ resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } });
        expect(body.status?.allowed).toBe(true);
      }
    }
  });

  it('creates a ConfigMap sent as protobuf (`kubectl create configmap`), data and labels decoded', async () => {
    const entry = (key: string, value: string) => [...proto.string(1, key), ...proto.string(2, value)];
    const metadata = [...proto.string(1, 'from-proto'), ...proto.string(3, 'o4-err2'), ...proto.bytes(11, entry('app', 'web'))];
    const configMap = proto.envelope('v1', 'ConfigMap', [
      ...proto.bytes(1, metadata),
      ...proto.bytes(2, entry('k', 'v')),
      ...proto.bytes(2, entry('k2', 'v2')),
    ]);
    const response = await fetch(`${api.url}/api/v1/namespaces/o4-err2/configmaps`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${api.token}`,
        'Content-Type': 'application/vnd.kubernetes.protobuf',
        Accept: 'application/vnd.kubernetes.protobuf,application/json',
      },
      body: configMap,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'from-proto', namespace: 'o4-err2', labels: { app: 'web' } },
      data: { k: 'v', k2: 'v2' },
    });
    expect(api.writes.records.at(-1)?.request).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'from-proto', namespace: 'o4-err2', labels: { app: 'web' } },
      data: { k: 'v', k2: 'v2' },
    });
  });

  it('refuses a protobuf body it cannot read with 415 and says why', async () => {
    const send = (body: Uint8Array) =>
      fetch(`${api.url}/apis/apps/v1/namespaces/o4-err2/deployments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/vnd.kubernetes.protobuf' },
        body,
      });
    const deployment = await send(proto.envelope('apps/v1', 'Deployment', []));
    expect([deployment.status, ((await deployment.json()) as { message: string }).message]).toEqual([
      415,
      'the mock API does not decode protobuf bodies of apps/v1 Deployment: send it as application/json',
    ]);
    const garbage = await send(new Uint8Array([1, 2, 3, 4, 5]));
    expect([garbage.status, ((await garbage.json()) as { message: string }).message]).toEqual([
      415,
      'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
    ]);
  });
});
