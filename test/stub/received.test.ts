// A stub's `received`: every review it was sent, in order, as the webhook got it.
import { createHarness, objects, review, stub, type Harness } from '../../lib';

const config = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: 'v' },
  webhooks: [
    {
      name: 'v.example.com',
      clientConfig: { url: 'https://v.example.com/' },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    },
  ],
};

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ seed: 4, manifests: [config as never], stubs: { 'v.example.com': stub.allow() } });
});
afterAll(() => h.close());

it('holds each review sent, in order, in one array that grows between reads', async () => {
  const server = h.stub('v.example.com');
  const first = await h.call('v.example.com', review.create(objects.pod({ name: 'a' })));
  const seen = server.received;
  expect(seen.map((r) => r.request?.uid)).toEqual([first.review.request?.uid]);
  const second = await h.call('v.example.com', review.create(objects.pod({ name: 'b' })));
  expect(server.received).toBe(seen);
  expect(seen.map((r) => r.request?.name)).toEqual(['a', 'b']);
  expect(seen[1]).toEqual(JSON.parse(JSON.stringify(second.review)));
});

it('a behavior changed after calls is the one the next call meets: the route follows it', async () => {
  const server = h.stub('v.example.com');
  const pod = review.create(objects.pod({ name: 'c' }));
  expect(await h.call('v.example.com', pod)).toBeAllowed();
  server.behavior = stub.refuse();
  try {
    const refused = await h.call('v.example.com', pod);
    expect(refused.error?.message).toMatch(
      /^failed calling webhook "v\.example\.com": failed to call webhook: Post "https:\/\/v\.example\.com\/\?timeout=10s": dial tcp 127\.0\.0\.1:\d+: connect: connection refused$/,
    );
  } finally {
    server.behavior = stub.allow();
  }
  expect(await h.call('v.example.com', pod)).toBeAllowed();
});
