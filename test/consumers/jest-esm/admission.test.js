// Native-ESM consumer ("type": "module", run with NODE_OPTIONS=--experimental-vm-modules): `import`
// resolves the package's "import" conditions (dist/*.mjs); the matchers come from
// `setupFilesAfterEnv: ['admission-harness/jest']` in package.json. No transform config.
import { createHarness, review, objects } from 'admission-harness';

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

test('names manifests by URL, as an ES module without __dirname does', async () => {
  const h = await createHarness({ target: allowAll, manifests: [new URL('./deploy/webhooks.yaml', import.meta.url)], seed: 1 });
  try {
    expect(await h.call('pod-policy.example.com', review.create(objects.pod()))).toBeAllowed();
  } finally {
    await h.close();
  }
});

test('the packed package allows a pod through a plain handler (ESM)', async () => {
  if (process.env.CONSUMER_EXPECT_NODE) expect(process.version).toBe(process.env.CONSUMER_EXPECT_NODE);
  const h = await createHarness({ target: allowAll, seed: 1 });
  try {
    const outcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));
    expect(outcome).toBeAllowed();
    expect(outcome).toEchoUid();
  } finally {
    await h.close();
  }
});
