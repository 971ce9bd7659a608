// Vitest consumer: `import 'admission-harness/vitest'` registers the matchers on Vitest's expect.
import { expect, test } from 'vitest';
import 'admission-harness/vitest';
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

test('the packed package allows a pod through a plain handler (Vitest)', async () => {
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
