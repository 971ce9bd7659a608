import { createHarness, objects, review, stub, type Harness } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';
import { answer, base64Patch, scriptedWebhook, type Answer } from '../webhooks/handlers';
import { mutating } from '../dispatch/helpers';
import { failure } from './failure';

let script: (r: AdmissionReview) => Answer = (r) => answer(r);
const target = scriptedWebhook((r) => script(r));
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: target.handler, seed: 5 });
});
afterAll(() => h.close());

const POD = objects.pod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, images: ['nginx:1.27'] });
const pod = () => structuredClone(POD);

async function outcomeOf(reply: (r: AdmissionReview) => Answer, request = review.create(pod())) {
  script = reply;
  return h.call({ type: 'mutating', name: 'defaults.example.com', path: '/m' }, request);
}
const patching = (ops: unknown[]) => (r: AdmissionReview) => answer(r, { patch: base64Patch(ops), patchType: 'JSONPatch' });
const addEnv = [{ op: 'add', path: '/metadata/labels/env', value: 'prod' }];

describe('toHavePatch', () => {
  it('passes on a non-empty patch; .not explains what it changes', async () => {
    const outcome = await outcomeOf(patching(addEnv));
    expect(outcome).toHavePatch();
    const message = failure(() => expect(outcome).not.toHavePatch());
    expect(message).toContain('expected the webhook to answer without a patch, but it sent 1 operation');
    expect(message).toContain('Changes (request object → patched):\n  added /metadata/labels/env: "prod"');
    expect(message).toContain('Request:  CREATE pods shop/web-1 → defaults.example.com [admission.k8s.io/v1] · seed 5');
    expect(message).toContain('Patch:    [{"op":"add","path":"/metadata/labels/env","value":"prod"}]');
  });

  it('fails on no patch and on an empty one, saying which', async () => {
    const none = await outcomeOf((r) => answer(r));
    expect(none).not.toHavePatch();
    expect(failure(() => expect(none).toHavePatch())).toContain('expected the webhook to answer with a patch, but it answered with no patch');
    const empty = await outcomeOf(patching([]));
    expect(failure(() => expect(empty).toHavePatch())).toContain('but it answered with an empty patch');
  });

  it('fails either way on a denial, whose patch kube-apiserver ignores', async () => {
    const outcome = await outcomeOf((r) => answer(r, { allowed: false, status: { message: 'no' }, patch: base64Patch(addEnv), patchType: 'JSONPatch' }));
    for (const message of [failure(() => expect(outcome).toHavePatch()), failure(() => expect(outcome).not.toHavePatch())]) {
      expect(message).toContain(
        'expected an allowed answer to inspect for a patch, but the webhook denied the request (kube-apiserver ignores the patch of a denial):\n  admission webhook "defaults.example.com" denied the request: no',
      );
    }
  });

  it('is for call outcomes only', async () => {
    const s = await createHarness({ seed: 5, manifests: [mutating('m', { name: 'm.example.com' })], stubs: { 'm.example.com': stub.allow() } });
    try {
      const result = await s.admit(review.create(pod()));
      expect(() => expect(result).toHavePatch()).toThrow(
        new TypeError('toHavePatch expects the result of h.call(), got the result of h.admit(), which has no single webhook answer to inspect'),
      );
      expect(() => expect(result).toLeaveUnchanged()).toThrow(TypeError);
      expect(() => expect(result).toHavePatchOps([])).toThrow(TypeError);
    } finally {
      await s.close();
    }
  });
});

describe('toHavePatchOps', () => {
  it('compares the decoded operations, asymmetric matchers included', async () => {
    const outcome = await outcomeOf(patching([...addEnv, { op: 'add', path: '/metadata/annotations', value: { a: 'b' } }]));
    expect(outcome).toHavePatchOps([...addEnv, { op: 'add', path: '/metadata/annotations', value: { a: 'b' } }]);
    expect(outcome).toHavePatchOps(expect.arrayContaining(addEnv));
    expect(outcome).toHavePatchOps(expect.arrayContaining([expect.objectContaining({ path: '/metadata/annotations' })]));
    expect(outcome).not.toHavePatchOps(expect.arrayContaining([{ op: 'remove', path: '/metadata/labels/app' }]));
  });

  it('shows the difference operation by operation', async () => {
    const outcome = await outcomeOf(patching(addEnv));
    const message = failure(() => expect(outcome).toHavePatchOps([{ op: 'add', path: '/metadata/labels/env', value: 'staging' }]));
    expect(message).toContain('expected the patch to equal the expected operations');
    expect(message).toContain('Difference (expected → received):\n  changed /0/value: "staging" → "prod"');
    expect(failure(() => expect(outcome).not.toHavePatchOps(addEnv))).toContain('expected the patch to differ, but it equals the expected operations');
  });

  it('reads no patch as []', async () => {
    const outcome = await outcomeOf((r) => answer(r));
    expect(outcome).toHavePatchOps([]);
    expect(failure(() => expect(outcome).toHavePatchOps(addEnv))).toContain(
      'Difference (expected → received):\n  removed /0: {"op":"add","path":"/metadata/labels/env","value":"prod"}',
    );
  });
});

describe('toHavePatchedTo', () => {
  it('applies the patch as kube-apiserver does and compares the result', async () => {
    const outcome = await outcomeOf(patching(addEnv));
    const expected = { ...pod(), metadata: { ...pod().metadata, labels: { app: 'web', env: 'prod' } } };
    expect(outcome).toHavePatchedTo(expected);
    expect(outcome).toHavePatchedTo(expect.objectContaining({ metadata: expect.objectContaining({ labels: { app: 'web', env: 'prod' } }) }));
    const message = failure(() => expect(outcome).not.toHavePatchedTo(expected));
    expect(message).toContain('expected the patched object to differ from the expected one, but it equals it');
    expect(message).toContain('The patch changed (request object → patched):\n  added /metadata/labels/env: "prod"');
  });

  it('shows a diff against the expected object', async () => {
    const outcome = await outcomeOf(patching(addEnv));
    const message = failure(() => expect(outcome).toHavePatchedTo({ ...pod(), metadata: { ...pod().metadata, labels: { app: 'web', env: 'staging' } } }));
    expect(message).toContain('Difference (expected → patched):\n  changed /metadata/labels/env: "staging" → "prod"');
  });

  it('shows only where the patched object fails asymmetric matchers, not the whole object', async () => {
    const outcome = await outcomeOf(patching(addEnv));
    const message = failure(() =>
      expect(outcome).toHavePatchedTo(
        expect.objectContaining({
          metadata: expect.objectContaining({ labels: { app: 'web', env: 'staging' }, uid: expect.any(String) }),
          spec: expect.anything(),
        }),
      ),
    );
    expect(message).toContain('Difference (expected → patched):\n  changed /metadata/labels/env: "staging" → "prod"\n  removed /metadata/uid: Any<String>\n\n');
    // The object itself is not printed: the containers appear only in the request's summary lines, if at all.
    expect(message).not.toContain('"containers"');
    expect(message).not.toContain('Patched object:');
  });

  it('fails either way with the v4 error when the patch does not apply', async () => {
    const outcome = await outcomeOf(patching([{ op: 'add', path: '/metadata/missing/x', value: 'y' }]));
    for (const message of [failure(() => expect(outcome).toHavePatchedTo(pod())), failure(() => expect(outcome).not.toHavePatchedTo(pod()))]) {
      expect(message).toContain(
        'expected a patched object to compare, but the patch does not apply to the request\'s object; kube-apiserver rejects the request with:\n  500 Internal error occurred: add operation does not apply: doc is missing path: "/metadata/missing/x": missing value',
      );
    }
  });

  it('reports a patch for a request without an object as kube-apiserver does', async () => {
    const outcome = await outcomeOf(patching(addEnv), review.delete(pod()));
    expect(failure(() => expect(outcome).toHavePatchedTo(pod()))).toContain(
      'admission webhook "defaults.example.com" attempted to modify the object, which is not supported for this operation',
    );
  });

  it('reads the admitted object of h.admit()', async () => {
    const s = await createHarness({
      seed: 5,
      namespaces: [{ name: 'shop' }],
      manifests: [mutating('m', { name: 'env.example.com' })],
      stubs: { 'env.example.com': stub.patch([{ op: 'add', path: '/metadata/labels/env', value: 'prod' }]) },
    });
    try {
      const result = await s.admit(review.create(pod()));
      expect(result).toHavePatchedTo(expect.objectContaining({ metadata: expect.objectContaining({ labels: { app: 'web', env: 'prod' } }) }));
      const message = failure(() => expect(result).toHavePatchedTo(pod()));
      expect(message).toContain('Difference (expected → patched):\n  added /metadata/labels/env: "prod"');
      expect(message).toContain('Trace:');
      s.stub('env.example.com').behavior = stub.deny({ message: 'no' });
      const rejected = await s.admit(review.create(pod()));
      expect(failure(() => expect(rejected).not.toHavePatchedTo(pod()))).toContain(
        'expected a patched object to compare, but the admission chain rejected the request:\n  admission webhook "env.example.com" denied the request: no',
      );
    } finally {
      await s.close();
    }
  });
});

describe('toLeaveUnchanged', () => {
  it('passes on no patch, an empty one, or one that changes nothing', async () => {
    expect(await outcomeOf((r) => answer(r))).toLeaveUnchanged();
    expect(await outcomeOf(patching([]))).toLeaveUnchanged();
    const noOp = await outcomeOf(patching([{ op: 'replace', path: '/metadata/labels/app', value: 'web' }]));
    expect(noOp).toLeaveUnchanged();
    expect(failure(() => expect(noOp).not.toLeaveUnchanged())).toContain(
      'expected the webhook to change the object, but its patch (1 operation) leaves the object as it was',
    );
  });

  it('lists what the patch changes', async () => {
    const outcome = await outcomeOf(patching([...addEnv, { op: 'remove', path: '/metadata/labels/app' }]));
    expect(outcome).not.toLeaveUnchanged();
    const message = failure(() => expect(outcome).toLeaveUnchanged());
    expect(message).toContain('expected the webhook to leave the object unchanged, but its patch changes it');
    expect(message).toContain('Changes (request object → patched):\n  removed /metadata/labels/app: "web"\n  added /metadata/labels/env: "prod"');
  });

  it('fails either way when the call failed', async () => {
    const outcome = await outcomeOf(() => ({ raw: 'oops', status: 500 }));
    expect(failure(() => expect(outcome).not.toLeaveUnchanged())).toContain(
      'expected an allowed answer to check for changes, but the call failed:\n  failed calling webhook "defaults.example.com"',
    );
  });
});
