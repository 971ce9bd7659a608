import { startMockApi, type MockApi } from '../../lib/mockapi';
import { parseYamlBody, YamlBodyError } from '../../lib/mockapi/yaml-body';
import { call } from './client';

/*
 * A YAML body as go-yaml (sigs.k8s.io/yaml's fork of v2) reads it: plain scalars resolved as v2 resolves them
 * into an interface{}, and its refusals of aliases (decode.go `alias` and `unmarshal`): an anchor never set, an
 * anchor whose value holds an alias to itself, a document whose aliases expand too far. Each refusal is kube's
 * 400 through the YAML serializer or the apply patcher, never an internal error.
 */
describe('parseYamlBody refuses in go-yaml’s words', () => {
  const refusal = (text: string): string => {
    try {
      parseYamlBody(text);
    } catch (error) {
      if (error instanceof YamlBodyError) return error.message;
      throw error;
    }
    throw new Error('parsed');
  };

  it('an alias of an anchor never set', () => {
    expect(refusal('a: 1\nb: *nope\n')).toBe("unknown anchor 'nope' referenced");
  });

  it('an anchor whose value contains an alias to itself (the yaml package would build a cycle)', () => {
    expect(refusal('a: &x {b: *x}\n')).toBe("anchor 'x' value contains itself");
    expect(refusal('a: &x [1, [*x]]\n')).toBe("anchor 'x' value contains itself");
  });

  it('aliases that expand without bound', () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 6; i++)
      levels.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    expect(refusal(`${levels.join('\n')}\n`)).toBe('document contains excessive aliasing');
  });

  it('still reads an alias of an earlier anchor', () => {
    expect(parseYamlBody('a: &x {b: 1}\nc: *x\n').value).toEqual({ a: { b: 1 }, c: { b: 1 } });
  });
});

describe('parseYamlBody reads plain scalars as go-yaml v2 does into an interface{}', () => {
  it('keeps a timestamp’s text and reads no base-60 number; YAML 1.1’s other forms are read', () => {
    const value = parseYamlBody('date: 2024-01-01\nstamp: 2001-12-14t21:59:43.10-05:00\nports: 22:22\nhex: 0x1F\nyes: y\n').value;
    expect(value).toEqual({ date: '2024-01-01', stamp: '2001-12-14t21:59:43.10-05:00', ports: '22:22', hex: 31, true: true });
  });
});

describe('the mock API answers a bad alias with a 400 Status', () => {
  let api: MockApi;
  beforeAll(async () => {
    api = await startMockApi({ seed: 5, namespaces: [{ name: 'team-a' }] });
  }, 60_000);
  afterAll(() => api.close());

  const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: aliased}\ndata: *nope\n';

  it('on a create in YAML', async () => {
    const reply = await call(api, 'POST', '/api/v1/namespaces/team-a/configmaps', body, 'application/yaml');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: "error converting YAML to JSON: yaml: unknown anchor 'nope' referenced",
    });
  });

  it('on a server-side apply', async () => {
    const reply = await call(api, 'PATCH', '/api/v1/namespaces/team-a/configmaps/aliased?fieldManager=test', body, 'application/apply-patch+yaml');
    expect(reply.status).toBe(400);
    // patch.go applyPatcher's `error decoding YAML: %v` around sigs.k8s.io/yaml's error.
    expect(reply.body).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message: "error decoding YAML: error converting YAML to JSON: yaml: unknown anchor 'nope' referenced",
    });
  });
});
