// /openapi/v2 as kube-openapi's handler serves it: JSON, or gnostic's protobuf Document that kubectl before 1.27
// reads for `explain` and apply's validation (test/mockapi/clients/kubectl.test.ts runs kubectl itself).
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { OPENAPI_V2_PROTOBUF } from '../../lib/mockapi/openapi-v2';

jest.setTimeout(60_000);

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 2 });
});
afterAll(() => api.close());

const get = (accept?: string) => fetch(`${api.url}/openapi/v2`, { headers: { Authorization: `Bearer ${api.token}`, ...(accept ? { Accept: accept } : {}) } });

/** Every `$ref` in a JSON value. */
function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, sub] of Object.entries(value)) {
      if (key === '$ref' && typeof sub === 'string') found.push(sub);
      else refsOf(sub, found);
    }
  }
  return found;
}

describe('/openapi/v2', () => {
  it('serves Swagger 2.0 JSON whose every reference resolves, kinds tagged with x-kubernetes-group-version-kind', async () => {
    const response = await get('application/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    const document = (await response.json()) as { swagger: string; definitions: Record<string, Record<string, unknown>> };
    expect(document.swagger).toBe('2.0');
    const deployment = document.definitions['io.k8s.api.apps.v1.Deployment'];
    expect(deployment?.['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', version: 'v1', kind: 'Deployment' }]);
    expect((deployment?.properties as Record<string, unknown>).spec).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec' });
    const unresolved = refsOf(document.definitions).filter((ref) => !(ref.replace('#/definitions/', '') in document.definitions));
    expect(unresolved).toEqual([]);
    // Swagger 2.0 has no oneOf: a Quantity is a string there.
    expect(document.definitions['io.k8s.apimachinery.pkg.api.resource.Quantity']).toEqual({ type: 'string' });
  });

  it('serves the protobuf Document to the Accept kubectl sends, the older type name included', async () => {
    for (const accept of ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', OPENAPI_V2_PROTOBUF]) {
      const response = await get(accept);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(OPENAPI_V2_PROTOBUF);
      const bytes = Buffer.from(await response.arrayBuffer());
      // Field 1 (swagger, length-delimited) = "2.0"; then field 2 (info).
      expect([...bytes.subarray(0, 6)]).toEqual([0x0a, 0x03, 0x32, 0x2e, 0x30, 0x12]);
      expect(bytes.includes(Buffer.from('io.k8s.api.apps.v1.Deployment'))).toBe(true);
      expect(bytes.includes(Buffer.from('x-kubernetes-group-version-kind'))).toBe(true);
    }
  });

  it('answers 406 to an Accept it cannot serve', async () => {
    expect((await get('text/plain')).status).toBe(406);
  });
});
