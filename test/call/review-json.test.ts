import { objects, review, SeededRandom } from '../../lib';
import { reviewJson } from '../../lib/call/invoke';
import { encodeReview, type InvocationView } from '../../lib/review/encode';
import type { AdmissionReviewVersion } from '../../lib/kube/admission';

// The body a webhook receives is spliced from cached pieces; it must stay byte for byte the JSON of
// the review the outcome reports, member order included, and its Content-Length (summed from the
// pieces' own) the length of that text in UTF-8 bytes.
function sent(body: { text: string; bytes?: number }): string {
  expect(body.bytes).toBe(Buffer.byteLength(body.text));
  return body.text;
}

describe('the review body sent to webhooks', () => {
  const seed = { random: new SeededRandom(5) };
  const pod = objects.pod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' } }, seed);
  const updated = { ...pod, metadata: { ...pod.metadata, labels: { app: 'web', tier: 'front' } } };
  const deployment = objects.deployment({ name: 'web', namespace: 'shop' }, { ...seed, stored: true });
  const reviews = {
    create: review.create(pod),
    'create, dry run': review.create(pod).dryRun(),
    update: review.update(updated, pod),
    delete: review.delete(pod),
    exec: review.exec(pod, ['sh']),
    scale: review.scale(deployment, 3),
    status: review.status(pod, { phase: 'Running' }),
  };
  const versions: AdmissionReviewVersion[] = ['v1', 'v1beta1'];
  const cases = Object.entries(reviews).flatMap(([name, r]) => versions.map((v) => [name, v, r] as const));

  it.each(cases)('%s (%s), sent as the review itself', (_name, version, r) => {
    for (const uid of ['00000000-0000-4000-8000-000000000001', 'a0b1c2d3-0000-4000-8000-00000000000f']) {
      expect(sent(reviewJson(r.attributes, version, uid))).toBe(JSON.stringify(encodeReview(r.attributes, version, uid)));
    }
  });

  it.each(cases)('%s (%s), sent as a webhook view of it', (_name, version, r) => {
    const a = r.attributes;
    const views: InvocationView[] = [
      { kind: a.kind, resource: a.resource, subResource: a.subResource, object: a.object, oldObject: a.oldObject },
      // An equivalent resource's view (matchPolicy Equivalent) with a converted object.
      {
        kind: { ...a.kind, version: 'v1beta1' },
        resource: { ...a.resource, version: 'v1beta1' },
        subResource: a.subResource,
        object: a.object && { ...a.object, apiVersion: 'example/v1beta1' },
        oldObject: a.oldObject,
      },
    ];
    for (const view of views) {
      // Twice: the second body comes from the cached object text.
      for (let i = 0; i < 2; i++) {
        expect(sent(reviewJson(a, version, `uid-${i}`, view))).toBe(JSON.stringify(encodeReview(a, version, `uid-${i}`, view)));
      }
    }
  });

  it('keeps text that looks like its splice marks', () => {
    const tricky = objects.configMap({ name: 'marks', namespace: 'shop', data: { object: '\u0000object\u0000', '"object":': '$&$1' } }, seed);
    const r = review.create(tricky);
    const a = r.attributes;
    const view = { kind: a.kind, resource: a.resource, subResource: '', object: a.object, oldObject: null };
    expect(sent(reviewJson(a, 'v1', 'u', view))).toBe(JSON.stringify(encodeReview(a, 'v1', 'u', view)));
    expect(sent(reviewJson(a, 'v1', 'u'))).toBe(JSON.stringify(encodeReview(a, 'v1', 'u')));
  });
  it('counts the bytes of text outside ASCII (Content-Length is in UTF-8 bytes)', () => {
    const named = objects.configMap({ name: 'cafe', namespace: 'shop', data: { menu: 'café ☕, 茶, 🍵' } }, seed);
    const r = review.create(named).as({ username: 'zoë', groups: ['system:authenticated'] });
    const a = r.attributes;
    const view = { kind: a.kind, resource: a.resource, subResource: '', object: a.object, oldObject: null };
    expect(sent(reviewJson(a, 'v1', 'u', view))).toBe(JSON.stringify(encodeReview(a, 'v1', 'u', view)));
    expect(sent(reviewJson(a, 'v1', 'u'))).toBe(JSON.stringify(encodeReview(a, 'v1', 'u')));
  });
  it('along a chain (a copy of the attributes per call, a new object after a patch) stays the review of each call', () => {
    const a = review.create(pod).attributes;
    const patched = { ...pod, metadata: { ...pod.metadata, labels: { app: 'web', patched: 'yes' } } };
    const other = review.create(pod).as({ username: 'alice', groups: ['system:authenticated'] }).attributes;
    for (const [attributes, object] of [
      [{ ...a }, pod],
      [{ ...a, object: patched }, patched],
      [other, pod],
      [{ ...a }, patched],
    ] as const) {
      const view = { kind: attributes.kind, resource: attributes.resource, subResource: '', object, oldObject: null };
      expect(sent(reviewJson(attributes, 'v1', 'u', view))).toBe(JSON.stringify(encodeReview(attributes, 'v1', 'u', view)));
    }
    // What the kept text was made from is frozen: a change after the call fails instead of going unsent.
    expect(() => {
      (a.userInfo as { username: string }).username = 'mallory';
    }).toThrow(TypeError);
  });
});
