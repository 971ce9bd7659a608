// CommonJS consumer: `require` resolves the package's "require" conditions (dist/*.cjs); the matchers
// come from `setupFilesAfterEnv: ['admission-harness/jest']` in package.json. No transform config.
const { createHarness, review, objects } = require('admission-harness');

/** A plain Node handler: reads the AdmissionReview and allows it, echoing request.uid. */
function allowAll(req, res) {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    const incoming = JSON.parse(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: incoming.request.uid, allowed: true },
      }),
    );
  });
}

test('the packed package allows a pod through a plain handler (CommonJS)', async () => {
  if (process.env.CONSUMER_EXPECT_NODE) expect(process.version).toBe(process.env.CONSUMER_EXPECT_NODE);
  expect(require.resolve('admission-harness')).toMatch(/index\.cjs$/);
  const h = await createHarness({ target: allowAll, seed: 1 });
  try {
    const outcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
  } finally {
    await h.close();
  }
});

// The package loads its heavy parts on first use (the registry's validation, the CEL engine, the mock
// API, the certificate generator). Jest's CommonJS runtime must get them by require: on Node 20 it
// refuses import() without --experimental-vm-modules.
test('the parts loaded on first use load under Jest CommonJS: registry, CEL, mock API', async () => {
  const { startMockApi } = require('admission-harness');
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'one-container' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
      validations: [{ expression: 'size(object.spec.containers) == 1', message: 'one container only' }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'one-container' },
    spec: { policyName: 'one-container', validationActions: ['Deny'] },
  };
  const api = await startMockApi({ namespaces: [{ name: 'shop' }] });
  const h = await createHarness({ manifests: [policy, binding], mockApi: api, seed: 1 });
  try {
    expect(await h.admit(review.create(objects.pod({ namespace: 'shop', images: ['a:1'] })))).toBeAllowed();
    const denied = await h.admit(review.create(objects.pod({ namespace: 'shop', images: ['a:1', 'b:1'] })));
    expect(denied).toBeDenied({ code: 422 });
    expect(denied.status.message).toContain("ValidatingAdmissionPolicy 'one-container' with binding 'one-container' denied request: one container only");
  } finally {
    await h.close();
    await api.close();
  }
});
