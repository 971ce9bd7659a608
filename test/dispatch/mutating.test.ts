import { createHarness, objects, review, stub, type Harness, type HarnessOptions } from '../../lib';
import { mutating, setLabel, validating } from './helpers';

const harnesses: Harness[] = [];
async function harness(options: Omit<HarnessOptions, 'target'>): Promise<Harness> {
  const h = await createHarness({ seed: 21, ...options });
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

const pod = () => objects.pod({ name: 'web-1', namespace: 'default', labels: { app: 'web' } });

describe('mutating webhooks (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go, reinvocationcontext.go)', () => {
  it('calls configurations in name order, webhooks in their order, each seeing the previous output', async () => {
    const h = await harness({
      manifests: [mutating('b-config', { name: 'b1.example.com' }), mutating('a-config', { name: 'a1.example.com' }, { name: 'a2.example.com' })],
      stubs: {
        'a1.example.com': stub.patch(setLabel('a1', 'x')),
        'a2.example.com': stub.patch(setLabel('a2', 'x')),
        'b1.example.com': stub.allow(),
      },
    });
    const result = await h.admit(review.create(pod()));
    expect(result).toBeAllowed();
    expect(result.trace.calls.map((s) => s.webhook)).toEqual(['a1.example.com', 'a2.example.com', 'b1.example.com']);
    expect(h.stub('a2.example.com').received[0]!.request!.object!.metadata!.labels).toEqual({ app: 'web', a1: 'x' });
    expect(h.stub('b1.example.com').received[0]!.request!.object!.metadata!.labels).toEqual({ app: 'web', a1: 'x', a2: 'x' });
    expect(result.object!.metadata!.labels).toEqual({ app: 'web', a1: 'x', a2: 'x' });
  });

  it('annotates every matched webhook and every applied patch, in kube-apiserver’s format', async () => {
    const ops = [{ op: 'add' as const, path: '/metadata/labels/added', value: 'test' }];
    const h = await harness({
      manifests: [
        mutating(
          'test-webhooks',
          { name: 'skipped.example.com', objectSelector: { matchLabels: { nope: 'x' } } },
          { name: 'addlabel.example.com' },
          { name: 'noop.example.com' },
        ),
      ],
      stubs: { 'skipped.example.com': stub.allow(), 'addlabel.example.com': stub.patch(ops), 'noop.example.com': stub.allow() },
    });
    const result = await h.admit(review.create(pod()));
    expect(result.auditAnnotations).toEqual({
      'mutation.webhook.admission.k8s.io/round_0_index_1': '{"configuration":"test-webhooks","webhook":"addlabel.example.com","mutated":true}',
      'patch.webhook.admission.k8s.io/round_0_index_1':
        '{"configuration":"test-webhooks","webhook":"addlabel.example.com","patch":[{"op":"add","path":"/metadata/labels/added","value":"test"}],"patchType":"JSONPatch"}',
      'mutation.webhook.admission.k8s.io/round_0_index_2': '{"configuration":"test-webhooks","webhook":"noop.example.com","mutated":false}',
      // PodSecurity annotates every pod it evaluates (fixtures/apiserver-policies record it on each request).
      'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
    });
  });

  describe('reinvocation', () => {
    it('two IfNeeded webhooks fighting over a label: a, b, a, b — b wins, all four mutated', async () => {
      const h = await harness({
        manifests: [
          mutating('fight', { name: 'settrue.example.com', reinvocationPolicy: 'IfNeeded' }, { name: 'setfalse.example.com', reinvocationPolicy: 'IfNeeded' }),
        ],
        stubs: { 'settrue.example.com': stub.patch(setLabel('fight', 'true')), 'setfalse.example.com': stub.patch(setLabel('fight', 'false')) },
      });
      const result = await h.admit(review.create(pod()));
      expect(result.trace.calls.map((s) => `${s.round}:${s.webhook}`)).toEqual([
        '0:settrue.example.com',
        '0:setfalse.example.com',
        '1:settrue.example.com',
        '1:setfalse.example.com',
      ]);
      expect(result.object!.metadata!.labels!.fight).toBe('false');
      for (const key of ['round_0_index_0', 'round_0_index_1', 'round_1_index_0', 'round_1_index_1']) {
        expect(JSON.parse(result.auditAnnotations[`mutation.webhook.admission.k8s.io/${key}`]!).mutated).toBe(true);
      }
    });

    it('only the first IfNeeded: a, b, a — a wins', async () => {
      const h = await harness({
        manifests: [mutating('fight', { name: 'a.example.com', reinvocationPolicy: 'IfNeeded' }, { name: 'b.example.com' })],
        stubs: { 'a.example.com': stub.patch(setLabel('fight', 'a')), 'b.example.com': stub.patch(setLabel('fight', 'b')) },
      });
      const result = await h.admit(review.create(pod()));
      expect(result.trace.calls.map((s) => s.webhook)).toEqual(['a.example.com', 'b.example.com', 'a.example.com']);
      expect(result.object!.metadata!.labels!.fight).toBe('a');
    });

    it('a webhook’s own change never schedules itself', async () => {
      const h = await harness({
        manifests: [mutating('self', { name: 'addlabel.example.com', reinvocationPolicy: 'IfNeeded' }, { name: 'noop.example.com' })],
        stubs: { 'addlabel.example.com': stub.patch(setLabel('added', 'x')), 'noop.example.com': stub.allow() },
      });
      const result = await h.admit(review.create(pod()));
      expect(result.trace.calls.map((s) => s.webhook)).toEqual(['addlabel.example.com', 'noop.example.com']);
    });

    it('addlabel + conditionaladdlabel: 2 and 1 calls, round-1 annotation mutated:false', async () => {
      const h = await harness({
        manifests: [
          mutating(
            'reinvoke',
            { name: 'addlabel.example.com', reinvocationPolicy: 'IfNeeded' },
            { name: 'conditionaladdlabel.example.com', reinvocationPolicy: 'IfNeeded' },
          ),
        ],
        stubs: {
          'addlabel.example.com': stub.patch(setLabel('x', 'true')),
          'conditionaladdlabel.example.com': stub.when({ pointer: '/metadata/labels/x', equals: 'true' }, { patch: setLabel('a', 'true') }),
        },
      });
      const result = await h.admit(review.create(pod()));
      expect(h.stub('addlabel.example.com').received).toHaveLength(2);
      expect(h.stub('conditionaladdlabel.example.com').received).toHaveLength(1);
      expect(JSON.parse(result.auditAnnotations['mutation.webhook.admission.k8s.io/round_1_index_0']!).mutated).toBe(false);
    });

    it('A, B, C all IfNeeded; A and C change in round 0: round 1 calls A and B, and A’s new change pulls in C', async () => {
      const h = await harness({
        manifests: [
          mutating(
            'abc',
            { name: 'a.example.com', reinvocationPolicy: 'IfNeeded' },
            { name: 'b.example.com', reinvocationPolicy: 'IfNeeded' },
            { name: 'c.example.com', reinvocationPolicy: 'IfNeeded' },
          ),
        ],
        stubs: { 'a.example.com': stub.allow(), 'b.example.com': stub.allow(), 'c.example.com': stub.patch(setLabel('c', 'x')) },
      });
      // A changes the object every time it is called: a label with the call count.
      h.stub('a.example.com').behavior = stub.when(
        { pointer: '/metadata/labels/a', exists: false },
        { patch: setLabel('a', '1') },
        { patch: setLabel('a', '2') },
      );
      const result = await h.admit(review.create(pod()));
      expect(h.stub('a.example.com').received).toHaveLength(2);
      expect(result.trace.calls.map((s) => `${s.round}:${s.webhook.charAt(0)}`)).toEqual(['0:a', '0:b', '0:c', '1:a', '1:b', '1:c']);
    });

    it('a webhook skipped in round 0 is never called in round 1, even if it then matches', async () => {
      const h = await harness({
        manifests: [
          mutating(
            'skip',
            { name: 'late.example.com', reinvocationPolicy: 'IfNeeded', objectSelector: { matchLabels: { added: 'x' } } },
            { name: 'adder.example.com' },
          ),
          mutating('z-reinvoker', { name: 'first.example.com', reinvocationPolicy: 'IfNeeded' }),
        ],
        stubs: { 'late.example.com': stub.allow(), 'adder.example.com': stub.patch(setLabel('added', 'x')), 'first.example.com': stub.allow() },
      });
      const result = await h.admit(review.create(pod()));
      expect(h.stub('late.example.com').received).toHaveLength(0);
      expect(result.trace.steps.filter((s) => s.webhook === 'late.example.com').map((s) => `${s.round}:${s.decision}`)).toEqual([
        '0:skipped',
        '1:not-reinvoked',
      ]);
    });

    it('reinvocationPolicy Never is not reinvoked', async () => {
      const h = await harness({
        manifests: [mutating('never', { name: 'a.example.com', reinvocationPolicy: 'Never' }, { name: 'b.example.com', reinvocationPolicy: 'IfNeeded' })],
        stubs: { 'a.example.com': stub.allow(), 'b.example.com': stub.patch(setLabel('b', 'x')) },
      });
      const result = await h.admit(review.create(pod()));
      expect(result.trace.calls.map((s) => s.webhook)).toEqual(['a.example.com', 'b.example.com']);
    });
  });

  it('evaluates objectSelectors on the object as earlier webhooks left it', async () => {
    const h = await harness({
      manifests: [mutating('sel', { name: 'remove.example.com' }, { name: 'selected.example.com', objectSelector: { matchLabels: { remove: 'me' } } })],
      stubs: { 'remove.example.com': stub.patch([{ op: 'remove', path: '/metadata/labels/remove' }]), 'selected.example.com': stub.allow() },
    });
    const labelled = objects.pod({ labels: { remove: 'me' } });
    await h.admit(review.create(labelled));
    expect(h.stub('selected.example.com').received).toHaveLength(0);
  });

  describe('failures', () => {
    it('Fail: the request fails with 500 and kube-apiserver’s message; later webhooks are not called', async () => {
      const h = await harness({
        manifests: [mutating('f', { name: 'broken.example.com' }, { name: 'after.example.com' })],
        stubs: { 'broken.example.com': stub.http(500, 'boom'), 'after.example.com': stub.allow() },
      });
      const result = await h.admit(review.create(pod()));
      expect(result.status).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Internal error occurred: failed calling webhook "broken.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
        reason: 'InternalError',
        details: {
          causes: [
            {
              message:
                'failed calling webhook "broken.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
            },
          ],
        },
        code: 500,
      });
      expect(h.stub('after.example.com').received).toHaveLength(0);
    });

    it('Ignore: the request goes on, with a failed-open annotation at the webhook’s index', async () => {
      const h = await harness({
        manifests: [mutating('f', { name: 'other.example.com' }, { name: 'broken.example.com', failurePolicy: 'Ignore' }, { name: 'after.example.com' })],
        stubs: { 'other.example.com': stub.allow(), 'broken.example.com': stub.closeConnection(), 'after.example.com': stub.allow() },
      });
      const result = await h.admit(review.create(pod()));
      expect(result).toBeAllowed();
      expect(result.auditAnnotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_1']).toBe('broken.example.com');
      expect(result.auditAnnotations['mutation.webhook.admission.k8s.io/round_0_index_1']).toBe(
        '{"configuration":"f","webhook":"broken.example.com","mutated":false}',
      );
      expect(h.stub('after.example.com').received).toHaveLength(1);
      expect(result.warnings).toEqual([]);
    });

    it('a denial is never subject to failurePolicy', async () => {
      const h = await harness({
        manifests: [mutating('d', { name: 'deny.example.com', failurePolicy: 'Ignore' })],
        stubs: { 'deny.example.com': stub.deny({ code: 403, message: 'no', reason: 'Forbidden' }) },
      });
      const result = await h.admit(review.create(pod()));
      expect(result).toBeDenied({ code: 403, message: 'admission webhook "deny.example.com" denied the request: no', reason: 'Forbidden' });
    });

    it('a patch that does not apply is a 500 even with Ignore, and the message does not name the webhook', async () => {
      const h = await harness({
        manifests: [mutating('p', { name: 'badpatch.example.com', failurePolicy: 'Ignore' })],
        stubs: { 'badpatch.example.com': stub.patch([{ op: 'remove', path: '/metadata/labels/nope' }]) },
      });
      const result = await h.admit(review.create(pod()));
      expect(result.status).toMatchObject({
        code: 500,
        reason: 'InternalError',
        message: "Internal error occurred: error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value",
      });
    });

    it('a patch on DELETE is a 500 not subject to failurePolicy', async () => {
      const h = await harness({
        manifests: [mutating('p', { name: 'patcher.example.com', failurePolicy: 'Ignore' })],
        stubs: { 'patcher.example.com': stub.patch(setLabel('x', 'y')) },
      });
      const result = await h.admit(review.delete(pod()));
      expect(result.status).toMatchObject({
        code: 500,
        message: 'Internal error occurred: admission webhook "patcher.example.com" attempted to modify the object, which is not supported for this operation',
      });
    });

    it('an empty patch is accepted and changes nothing', async () => {
      // Without the ServiceAccount plugin, which would mount its token volume: the object must come back as sent.
      const h = await harness({
        manifests: [mutating('p', { name: 'empty.example.com' })],
        stubs: { 'empty.example.com': stub.patch([]) },
        plugins: { disable: ['ServiceAccount'] },
      });
      const request = review.create(pod());
      const result = await h.admit(request);
      expect(result).toBeAllowed();
      expect(result.object).toEqual(request.attributes.object);
      expect(Object.keys(result.auditAnnotations)).toEqual(['mutation.webhook.admission.k8s.io/round_0_index_0', 'pod-security.kubernetes.io/enforce-policy']);
    });
  });

  it('accepts a rename on CREATE but rejects moving the object to another namespace', async () => {
    const rename = await harness({
      manifests: [mutating('r', { name: 'rename.example.com' })],
      stubs: { 'rename.example.com': stub.patch([{ op: 'replace', path: '/metadata/name', value: 'renamed' }]) },
    });
    expect((await rename.admit(review.create(pod()))).object!.metadata!.name).toBe('renamed');
    const move = await harness({
      manifests: [mutating('m', { name: 'move.example.com' })],
      stubs: { 'move.example.com': stub.patch([{ op: 'replace', path: '/metadata/namespace', value: 'elsewhere' }]) },
    });
    expect((await move.admit(review.create(pod()))).status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('never sends webhook configurations to webhooks', async () => {
    const h = await harness({
      manifests: [mutating('all', { name: 'all.example.com' }), validating('v', { name: 'v.example.com' })],
      stubs: { 'all.example.com': stub.deny(), 'v.example.com': stub.deny() },
    });
    const config = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'x' }, webhooks: [] };
    const result = await h.admit(review.create(config));
    expect(result).toBeAllowed();
    expect(result.exempt).toBe('MutatingWebhookConfiguration objects are never sent to admission webhooks');
    expect(h.stub('all.example.com').received).toHaveLength(0);
  });
});

describe('a patch that makes json-patch panic', () => {
  it('ends in the panic-recovery 500, not in an Internal error Status', async () => {
    const h = await createHarness({
      seed: 5,
      manifests: [mutating('p', { name: 'panic.example.com' })],
      stubs: { 'panic.example.com': stub.patch([{ op: 'test', path: '/spec/x', value: [null] }]) },
    });
    try {
      const pod = objects.pod();
      const result = await h.admit(review.create({ ...pod, spec: { ...pod.spec!, x: [null] } as typeof pod.spec }));
      expect(result.status).toMatchObject({
        code: 500,
        reason: 'InternalError',
        message: 'an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding',
      });
    } finally {
      await h.close();
    }
  });
});
