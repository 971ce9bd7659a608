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
      `${at} webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
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
      {
        apiVersion: 'admissionregistration.k8s.io/v1beta1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'old' },
        webhooks: [{ name: 'old.example.com', clientConfig: { url: 'https://h/' } }],
      },
    ]);
    expect(entry!.spec).toMatchObject({
      failurePolicy: 'Ignore',
      matchPolicy: 'Exact',
      timeoutSeconds: 30,
      sideEffects: 'Unknown',
      admissionReviewVersions: ['v1beta1'],
    });
  });

  it('reads YAML 1.1 scalars as Kubernetes does', () => {
    const [doc] = parseManifestText('a: yes\nb: 0755\nc: "yes"\n', 'inline.yaml');
    expect(doc!.value).toEqual({ a: true, b: 493, c: 'yes' });
  });

  it('names the file, document and line of a YAML syntax error', () => {
    expect(() => parseManifestText('a: 1\n---\nb: [1, 2\n', 'broken.yaml')).toThrow(/^broken\.yaml doc 2: .* at line \d+, column \d+/);
  });

  it('reads a file: URL, as an ES module names a file next to it without __dirname', () => {
    const url = new URL(`file://${fixture('helm-output.yaml')}`);
    expect(loadManifests([url])).toEqual(loadManifests([fixture('helm-output.yaml')]));
    expect(() => loadManifests([new URL('https://example.com/webhooks.yaml')])).toThrow('manifests: https://example.com/webhooks.yaml is not a file URL');
  });

  it('names an unreadable file', () => {
    expect(() => loadManifests(['does/not/exist.yaml'])).toThrow(expect.objectContaining({ code: 'MANIFEST_UNREADABLE' }));
  });
});

describe('CustomResourceDefinitions in the manifests', () => {
  it('are registered, so requests for their kinds can be built and matched', async () => {
    const { readFileSync } = await import('node:fs');
    const capture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-captures/customresourcedefinitions-create.json'), 'utf8')) as {
      calls: { body: { request: { object: Record<string, unknown> } } }[];
    };
    const crd = capture.calls[0]!.body.request.object;
    const catalog = new ResourceCatalog();
    const webhook = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'widgets' },
      webhooks: [
        {
          name: 'widgets.example.com',
          clientConfig: { url: 'https://w/' },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          rules: [{ operations: ['CREATE'], apiGroups: ['capture.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
        },
      ],
    };
    loadManifests([crd, webhook], { catalog });
    expect(catalog.resourceForKind({ group: 'capture.example.com', version: 'v1', kind: 'Widget' })).toMatchObject({ resource: 'widgets', namespaced: true });
    expect(catalog.equivalentResources({ group: 'capture.example.com', version: 'v1', resource: 'widgets' })).toEqual([
      { group: 'capture.example.com', version: 'v2', resource: 'widgets' },
    ]);
  });

  it('reports an invalid one with its location', async () => {
    expect(() =>
      loadManifests([{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'x.example.com' }, spec: {} }], {
        catalog: new ResourceCatalog(),
      }),
    ).toThrow(/manifests\[0\]: .*CustomResourceDefinition/);
  });
});

describe('strict inputs, as kubectl and the API check them', () => {
  const webhook = (fields: Record<string, unknown>, kind = 'ValidatingWebhookConfiguration') => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind,
    metadata: { name: 'strict' },
    webhooks: [
      { name: 'strict.example.com', clientConfig: { url: 'https://strict.example.com/' }, sideEffects: 'None', admissionReviewVersions: ['v1'], ...fields },
    ],
  });
  const problems = (config: Record<string, unknown>): string[] => {
    try {
      loadManifests([config]);
    } catch (error) {
      return (error as HarnessError).message
        .split('\n')
        .filter((l) => l.startsWith('  manifests[0]'))
        .map((l) => l.replace(/^ {2}manifests\[0\] \([A-Za-z]+ "strict"\) /, ''));
    }
    return [];
  };

  it.each<[string, Record<string, unknown>, string[], string?]>([
    [
      'an unknown field, with the nearest known one',
      { timeoutSecond: 5 },
      ['webhooks[0].timeoutSecond: unknown field "timeoutSecond" (did you mean "timeoutSeconds"?)'],
    ],
    [
      'an unknown field deep down',
      { clientConfig: { url: 'https://x.example.com/', caBundel: 'eA==' } },
      ['webhooks[0].clientConfig.caBundel: unknown field "caBundel" (did you mean "caBundle"?)'],
    ],
    ['reinvocationPolicy on a validating webhook', { reinvocationPolicy: 'Never' }, ['webhooks[0].reinvocationPolicy: unknown field "reinvocationPolicy"']],
    [
      'a URL with a query',
      { clientConfig: { url: 'https://x.example.com/hook?x=1' } },
      ['webhooks[0].clientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL'],
    ],
    [
      'a URL with a fragment',
      { clientConfig: { url: 'https://x.example.com/hook#top' } },
      ['webhooks[0].clientConfig.url: Invalid value: "top": fragments are not permitted in the URL'],
    ],
    [
      'an unknown operation',
      { rules: [{ operations: ['PATCH'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] },
      ['webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"'],
    ],
    [
      'a wildcard operation among others',
      { rules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] },
      [
        'webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if \'*\' is present, must not specify other operations',
      ],
    ],
    [
      'a rule without groups or versions',
      { rules: [{ operations: ['CREATE'], resources: ['pods'] }] },
      ['webhooks[0].rules[0].apiGroups: Required value', 'webhooks[0].rules[0].apiVersions: Required value'],
    ],
    [
      '*/* among other resources',
      { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['*/*', 'pods'] }] },
      ['webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources'],
    ],
    [
      'pods/* beside pods/status',
      { rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/*', 'pods/status'] }] },
      ['webhooks[0].rules[0].resources[1]: Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status'],
    ],
    [
      'an unknown scope',
      { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Namespace' }] },
      ['webhooks[0].rules[0].scope: Unsupported value: "Namespace": supported values: "*", "Cluster", "Namespaced"'],
    ],
    [
      'an unknown matchPolicy',
      { matchPolicy: 'Equivalence' },
      ['webhooks[0].matchPolicy: Unsupported value: "Equivalence": supported values: "Equivalent", "Exact"'],
    ],
    [
      'a selector operator that is none',
      { objectSelector: { matchExpressions: [{ key: 'env', operator: 'Equals', values: ['prod'] }] } },
      ['webhooks[0].objectSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator'],
    ],
    [
      'In without values',
      { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] } },
      ["webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"],
    ],
    [
      'Exists with values',
      { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] } },
      ["webhooks[0].namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
    ],
    [
      'a label value that is none',
      { objectSelector: { matchLabels: { env: 'prod env' } } },
      [
        expect.stringMatching(
          /^webhooks\[0\]\.objectSelector\.matchLabels: Invalid value: "prod env": a valid label must be an empty string or consist of alphanumeric characters/,
        ) as unknown as string,
      ],
    ],
  ])('%s', (_name, fields, expected) => {
    expect(problems(webhook(fields))).toEqual(expected);
  });

  it('an unknown field of the configuration itself, or of its metadata', () => {
    expect(problems({ ...webhook({}), metadata: { name: 'strict', label: { a: 'b' } }, webhook: [] })).toEqual([
      'metadata.label: unknown field "label" (did you mean "labels"?)',
      'webhook: unknown field "webhook" (did you mean "webhooks"?)',
    ]);
  });
});
