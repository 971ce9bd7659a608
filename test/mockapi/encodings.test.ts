import fs from 'node:fs';
import path from 'node:path';
import { startMockApi, type MockApi } from '../../lib/mockapi';

/*
 * Encodings as kube-apiserver v1.36.2 answered them (fixtures recorded on a real cluster, in
 * test/mockapi/fixtures/apiserver-api): Accept negotiation and its 406 texts, Content-Types a body may not come
 * in, and protobuf request bodies, which kubectl sends for built-in kinds.
 */

interface Step {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { code: number; headers: Record<string, string>; body?: unknown; bodyRaw?: string };
}
const fixture = <T = { steps: Step[] }>(name: string): T => JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'apiserver-api', `${name}.json`), 'utf8')) as T;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 4, namespaces: [{ name: 'o4-err2' }] });
  for (const name of ['p1', 'p2', 'p3', 'p4']) api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'o4-err2' }, data: { n: name } });
}, 60_000);
afterAll(() => api.close());

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
  const byDescription = (method: string, target: string, accept?: string): Step =>
    steps.find((s) => s.request.method === method && s.request.path === target && (accept === undefined || s.request.headers.Accept === accept)) as Step;

  it.each([
    ['an Accept the API cannot serve: 406 with the representations it has, indented', byDescription('GET', '/api/v1/namespaces/o4-err2/configmaps/p4', 'text/html')],
    ['a group no API serves: the mux 404 page in plain text', byDescription('GET', '/apis/nosuch.example.com/v1/things')],
    ['a resource the group does not have: 404 Status', byDescription('GET', '/api/v1/namespaces/o4-err2/nosuchresource')],
    ['a missing object: 404 NotFound', byDescription('GET', '/api/v1/namespaces/o4-err2/configmaps/missing')],
  ])('%s', async (_what, step) => {
    const { response, text } = await replay(step);
    expect(response.status).toBe(step.response.code);
    expect(response.headers.get('content-type')).toBe(step.response.headers['content-type']);
    if (step.response.bodyRaw !== undefined) expect(text).toBe(step.response.bodyRaw);
    else expect(JSON.parse(text)).toEqual(step.response.body);
  });

  it('a PATCH in a Content-Type no patch has: 415 UnsupportedMediaType', async () => {
    const step = byDescription('PATCH', '/api/v1/namespaces/o4-err2/configmaps/p1');
    const { response, text } = await replay(step);
    expect(response.status).toBe(415);
    expect(JSON.parse(text)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'UnsupportedMediaType', code: 415 });
  });

  it('a Table or protobuf Accept with JSON after it is answered in JSON', async () => {
    for (const accept of ['application/vnd.kubernetes.protobuf,application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json', '*/*', 'application/json, */*']) {
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
    const { kubectl } = fixture<{ kubectl: { requests: { method: string; url: string; accept: string; contentType: string | null; status: string }[] } }>('kubectl-auth-can-i');
    // `kubectl auth can-i create pods`: spec.resourceAttributes {namespace: default, verb: create, resource: pods}.
    const attributes = [...proto.string(1, 'default'), ...proto.string(2, 'create'), ...proto.string(3, ''), ...proto.string(4, ''), ...proto.string(5, 'pods'), ...proto.string(6, ''), ...proto.string(7, '')];
    const review = proto.envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', [...proto.bytes(1, []), ...proto.bytes(2, proto.bytes(1, attributes)), ...proto.bytes(3, [...proto.varint(8), 0])]);
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
    const configMap = proto.envelope('v1', 'ConfigMap', [...proto.bytes(1, metadata), ...proto.bytes(2, entry('k', 'v')), ...proto.bytes(2, entry('k2', 'v2'))]);
    const response = await fetch(`${api.url}/api/v1/namespaces/o4-err2/configmaps`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf,application/json' },
      body: configMap,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'from-proto', namespace: 'o4-err2', labels: { app: 'web' } }, data: { k: 'v', k2: 'v2' } });
    expect(api.writes.records.at(-1)?.request).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-proto', namespace: 'o4-err2', labels: { app: 'web' } }, data: { k: 'v', k2: 'v2' } });
  });

  it('refuses a protobuf body it cannot read with 415 and says why', async () => {
    const send = (body: Uint8Array) =>
      fetch(`${api.url}/apis/apps/v1/namespaces/o4-err2/deployments`, { method: 'POST', headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/vnd.kubernetes.protobuf' }, body });
    const deployment = await send(proto.envelope('apps/v1', 'Deployment', []));
    expect([deployment.status, ((await deployment.json()) as { message: string }).message]).toEqual([415, 'the mock API does not decode protobuf bodies of apps/v1 Deployment: send it as application/json']);
    const garbage = await send(new Uint8Array([1, 2, 3, 4, 5]));
    expect([garbage.status, ((await garbage.json()) as { message: string }).message]).toEqual([415, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]']);
  });
});
