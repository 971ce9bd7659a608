import path from 'node:path';
import { HarnessError, loadManifests, ResourceCatalog } from '../../lib';
import { parseManifestText } from '../../lib/config';

const fixture = (name: string) => path.join(__dirname, '../fixtures/manifests', name);

describe('loading webhook configurations', () => {
  it('reads Helm output: skips other kinds and empty documents, applies v1 defaults', () => {
    const [entry, ...rest] = loadManifests([fixture('helm-output.yaml')]);
    expect(rest).toHaveLength(0);
    expect(entry).toMatchObject({ type: 'mutating', configuration: 'guard', index: 0 });
    expect(entry!.spec).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
      clientConfig: { service: { namespace: 'hooks', name: 'guard', path: '/mutate', port: 443 } },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: '*' }],
    });
    expect(entry!.source).toBe(`${fixture('helm-output.yaml')} doc 3 (MutatingWebhookConfiguration "guard")`);
  });

  it('reports every invalid field with file, document, object and field path', () => {
    let error: HarnessError | undefined;
    try {
      loadManifests([fixture('invalid.yaml')]);
    } catch (e) {
      error = e as HarnessError;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect(error!.code).toBe('MANIFEST_INVALID');
    const at = `${fixture('invalid.yaml')} doc 2 (MutatingWebhookConfiguration "pod-defaults")`;
    for (const line of [
      `${at} webhooks[0].clientConfig.url: Invalid value: "http://pod-defaults.example.com/mutate": 'https' is the only allowed URL scheme`,
      `${at} webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds`,
      `${at} webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`,
      `${at} webhooks[1].name: Duplicate value: "pod-defaults.example.com"`,
      `${at} webhooks[1].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive`,
      `${at} webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun`,
      `${at} webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1`,
    ]) {
      expect(error!.message).toContain(line);
    }
  });

  it('rejects URLs with user info, query or fragment, and bad service paths', () => {
    const config = (clientConfig: object) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'c' },
      webhooks: [{ name: 'a.b.c', clientConfig, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    });
    expect(() => loadManifests([config({ url: 'https://u:p@h/x' })])).toThrow(/user information is not permitted in the URL/);
    expect(() => loadManifests([config({ url: 'https://h/x?a=b' })])).toThrow(/query parameters are not permitted in the URL/);
    expect(() => loadManifests([config({ url: 'https://h/x#f' })])).toThrow(/fragments are not permitted in the URL/);
    expect(() => loadManifests([config({ service: { name: 's', namespace: 'n', path: 'noslash' } })])).toThrow(/must start with a '\/'/);
    // ValidateWebhookService: each segment must be a DNS-1123 subdomain, with IsDNS1123Subdomain's text.
    expect(() => loadManifests([config({ service: { name: 's', namespace: 'n', path: '/ok/Bad_Segment' } })])).toThrow(
      `webhooks[0].clientConfig.service.path: Invalid value: "/ok/Bad_Segment": segment[1]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
    expect(() => loadManifests([config({ url: 'https://h/x', service: { name: 's', namespace: 'n' } })])).toThrow(/exactly one of url or service is required/);
    expect(() => loadManifests([config({ url: 'https://h/x' })])).not.toThrow();
  });

  it('keeps v1beta1 defaults for v1beta1 objects', () => {
    const [entry] = loadManifests([
      { apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'old' }, webhooks: [{ name: 'old.example.com', clientConfig: { url: 'https://h/' } }] },
    ]);
    expect(entry!.spec).toMatchObject({ failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 30, sideEffects: 'Unknown', admissionReviewVersions: ['v1beta1'] });
  });

  it('reads YAML 1.1 scalars as Kubernetes does', () => {
    const [doc] = parseManifestText('a: yes\nb: 0755\nc: "yes"\n', 'inline.yaml');
    expect(doc!.value).toEqual({ a: true, b: 493, c: 'yes' });
  });

  it('names the file, document and line of a YAML syntax error', () => {
    expect(() => parseManifestText('a: 1\n---\nb: [1, 2\n', 'broken.yaml')).toThrow(/^broken\.yaml doc 2: .* at line \d+, column \d+/);
  });

  it('names an unreadable file', () => {
    expect(() => loadManifests(['does/not/exist.yaml'])).toThrow(expect.objectContaining({ code: 'MANIFEST_UNREADABLE' }));
  });
});

describe('CustomResourceDefinitions in the manifests', () => {
  it('are registered, so requests for their kinds can be built and matched', async () => {
    const { readFileSync } = await import('node:fs');
    const capture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-captures/customresourcedefinitions-create.json'), 'utf8')) as { calls: { body: { request: { object: Record<string, unknown> } } }[] };
    const crd = capture.calls[0]!.body.request.object;
    const catalog = new ResourceCatalog();
    const webhook = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'widgets' },
      webhooks: [{ name: 'widgets.example.com', clientConfig: { url: 'https://w/' }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules: [{ operations: ['CREATE'], apiGroups: ['capture.example.com'], apiVersions: ['v1'], resources: ['widgets'] }] }],
    };
    loadManifests([crd, webhook], { catalog });
    expect(catalog.resourceForKind({ group: 'capture.example.com', version: 'v1', kind: 'Widget' })).toMatchObject({ resource: 'widgets', namespaced: true });
    expect(catalog.equivalentResources({ group: 'capture.example.com', version: 'v1', resource: 'widgets' })).toEqual([{ group: 'capture.example.com', version: 'v2', resource: 'widgets' }]);
  });

  it('reports an invalid one with its location', async () => {
    expect(() => loadManifests([{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'x.example.com' }, spec: {} }], { catalog: new ResourceCatalog() })).toThrow(/manifests\[0\]: .*CustomResourceDefinition/);
  });
});
