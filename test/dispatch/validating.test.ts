import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, objects, review, stub, type Harness, type HarnessOptions } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';
import { mutating, validating } from './helpers';

const harnesses: Harness[] = [];
async function harness(options: HarnessOptions): Promise<Harness> {
  const h = await createHarness({ seed: 22, ...options });
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

const pod = () => objects.pod({ name: 'web-1', namespace: 'default' });

/**
 * Tests whose outcome is about time run it on a clock they control: Jest's fake timers drive the stubs'
 * delays and the request's clock (`performance.now()`), while sockets, and the calls' own deadlines on
 * Node's timers, run for real. Each step waits on real I/O turns until the webhooks it expects have the
 * request, then moves the clock: a loaded machine makes the test slower, never different.
 */
function useTestClock(): void {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
}
afterEach(() => jest.useRealTimers());

/** Waits, turn by turn of the event loop (never on a timer), until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe('validating webhooks (k8s.io/apiserver/pkg/admission/plugin/webhook/validating/dispatcher.go)', () => {
  it('calls every matching webhook in parallel, with the mutated object', async () => {
    // The first webhook answers only once the second has been called: sequential calls would deadlock.
    let secondCalled: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (secondCalled = resolve));
    const seen: Record<string, unknown> = {};
    const target = (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', async () => {
        const sent = JSON.parse(body) as AdmissionReview;
        seen[req.url ?? ''] = sent.request?.object?.metadata?.labels?.mutated;
        if (req.url?.startsWith('/second')) secondCalled();
        else await second;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ apiVersion: sent.apiVersion, kind: 'AdmissionReview', response: { uid: sent.request?.uid, allowed: true } }));
      });
    };
    const h = await harness({
      target,
      manifests: [
        mutating('m', { name: 'm.example.com' }),
        validating(
          'v',
          { name: 'first.example.com', clientConfig: { url: 'https://first.example.com/first' } },
          { name: 'second.example.com', clientConfig: { url: 'https://second.example.com/second' } },
        ),
      ],
      stubs: { 'm.example.com': stub.patch([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]) },
    });
    expect(await h.admit(review.create(pod()))).toBeAllowed();
    expect(seen).toEqual({ '/first?timeout=10s': 'yes', '/second?timeout=10s': 'yes' });
  });

  it('returns the first error to arrive when several deny', async () => {
    const h = await harness({
      manifests: [validating('v', { name: 'late.example.com' }, { name: 'early.example.com' })],
      stubs: { 'late.example.com': stub.delay(1, stub.deny({ message: 'late' })), 'early.example.com': stub.deny({ message: 'early' }) },
    });
    useTestClock();
    const admitted = h.admit(review.create(pod()));
    // The late webhook answers only once the early denial has been counted (its metric is written as it arrives).
    await until(() => h.stub('late.example.com').received.length === 1 && h.metrics().includes('name="early.example.com"'));
    jest.advanceTimersByTime(1000);
    const result = await admitted;
    expect(result).toBeDenied({ message: 'admission webhook "early.example.com" denied the request: early' });
    expect(h.stub('late.example.com').received).toHaveLength(1);
  });

  it('Ignore: the failed-open index counts only matching validating webhooks, round 0', async () => {
    const h = await harness({
      manifests: [
        validating(
          'v',
          { name: 'unmatched.example.com', objectSelector: { matchLabels: { x: 'y' } } },
          { name: 'ok.example.com' },
          { name: 'broken.example.com', failurePolicy: 'Ignore' },
        ),
      ],
      stubs: { 'unmatched.example.com': stub.allow(), 'ok.example.com': stub.allow(), 'broken.example.com': stub.http(500, 'x') },
    });
    const result = await h.admit(review.create(pod()));
    expect(result).toBeAllowed();
    expect(result.auditAnnotations).toEqual({
      'failed-open.validating.webhook.admission.k8s.io/round_0_index_1': 'broken.example.com',
      'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
    });
  });

  it('Fail: 500 with the calling error', async () => {
    const h = await harness({ manifests: [validating('v', { name: 'broken.example.com' })], stubs: { 'broken.example.com': stub.omitResponse() } });
    const result = await h.admit(review.create(pod()));
    expect(result.status).toMatchObject({
      code: 500,
      message: 'Internal error occurred: failed calling webhook "broken.example.com": received invalid webhook response: webhook response was absent',
    });
  });
});

describe('sideEffects and dryRun (the dispatchers in k8s.io/apiserver/pkg/admission/plugin/webhook)', () => {
  const v1beta1 = (name: string, sideEffects: string) => ({
    apiVersion: 'admissionregistration.k8s.io/v1beta1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: `cfg-${name}` },
    webhooks: [
      {
        name,
        clientConfig: { url: `https://${name}/` },
        sideEffects,
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        failurePolicy: 'Ignore',
        admissionReviewVersions: ['v1'],
      },
    ],
  });

  it('rejects a dryRun request with 400 before calling a webhook whose side effects are Unknown or Some, whatever its failurePolicy', async () => {
    for (const sideEffects of ['Unknown', 'Some']) {
      const h = await harness({ manifests: [v1beta1('effects.example.com', sideEffects)], stubs: { 'effects.example.com': stub.allow() } });
      const result = await h.admit(review.create(pod()).dryRun());
      expect(result.status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'admission webhook "effects.example.com" does not support dry run' });
      expect(h.stub('effects.example.com').received).toHaveLength(0);
    }
  });

  it('calls None and NoneOnDryRun webhooks with dryRun: true', async () => {
    const h = await harness({
      manifests: [validating('v', { name: 'none.example.com', sideEffects: 'None' }, { name: 'ondry.example.com', sideEffects: 'NoneOnDryRun' })],
      stubs: { 'none.example.com': stub.allow(), 'ondry.example.com': stub.allow() },
    });
    const result = await h.admit(review.create(pod()).dryRun());
    expect(result).toBeAllowed();
    for (const name of ['none.example.com', 'ondry.example.com']) {
      const sent = h.stub(name).received[0]!.request!;
      expect(sent.dryRun).toBe(true);
      expect(sent.options).toMatchObject({ kind: 'CreateOptions', dryRun: ['All'] });
    }
  });

  it('a non-matching webhook with side effects does not affect a dryRun request', async () => {
    const config = v1beta1('effects.example.com', 'Some');
    (config.webhooks[0]!.rules[0]!.resources as string[]) = ['configmaps'];
    const h = await harness({ manifests: [config], stubs: { 'effects.example.com': stub.allow() } });
    expect(await h.admit(review.create(pod()).dryRun())).toBeAllowed();
  });
});

describe('warnings (k8s.io/apiserver/pkg/endpoints/filters/warning.go; recorded on a real kube-apiserver v1.36.2)', () => {
  it('reach the client as 299 headers, deduplicated, newlines dropped, from allowed and denied answers', async () => {
    const h = await harness({
      manifests: [mutating('m', { name: 'm.example.com' }), validating('v', { name: 'v.example.com' })],
      stubs: {
        'm.example.com': stub.allow({ warnings: ['same', 'has "quotes" and \\ backslash', 'line\nbreak', ''] }),
        'v.example.com': stub.deny({ message: 'no' }, { warnings: ['same', 'from a denial'] }),
      },
    });
    const result = await h.admit(review.create(pod()));
    expect(result.warningHeaders).toEqual(['299 - "same"', '299 - "has \\"quotes\\" and \\\\ backslash"', '299 - "from a denial"']);
    expect(result.warnings).toEqual(['same', 'has "quotes" and \\ backslash', 'from a denial']);
    expect(result.dropped.warnings).toEqual([{ text: 'line\nbreak', why: expect.stringContaining('control characters') }]);
  });

  it('pass a 300-character warning whole', async () => {
    const long = 'w'.repeat(300);
    const h = await harness({ manifests: [validating('v', { name: 'v.example.com' })], stubs: { 'v.example.com': stub.allow({ warnings: [long] }) } });
    expect((await h.admit(review.create(pod()))).warnings).toEqual([long]);
  });
});

describe('audit annotations from webhooks (k8s.io/apiserver/pkg/admission/attributes.go checkKeyFormat)', () => {
  it('are stored as <webhook>/<key>; invalid keys are dropped, with the reason kept', async () => {
    const h = await harness({
      manifests: [validating('v', { name: 'allow.example.com' }, { name: 'second.example.com' })],
      stubs: {
        'allow.example.com': stub.allow({ auditAnnotations: { key1: 'value1', 'invalid*key': 'x' } }),
        'second.example.com': stub.deny({ message: 'no' }, { auditAnnotations: { key2: 'value2' } }),
      },
    });
    const result = await h.admit(review.create(pod()));
    expect(result.auditAnnotations).toEqual({
      'allow.example.com/key1': 'value1',
      'second.example.com/key2': 'value2',
      'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
    });
    expect(result.dropped.auditAnnotations.map((d) => d.key)).toEqual(['allow.example.com/invalid*key']);
  });

  it('drop every key of a webhook whose name is not a DNS subdomain', async () => {
    const h = await harness({
      manifests: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1beta1',
          kind: 'ValidatingWebhookConfiguration',
          metadata: { name: 'c' },
          webhooks: [
            {
              name: 'removeLabel.example.com',
              clientConfig: { url: 'https://r/' },
              sideEffects: 'None',
              admissionReviewVersions: ['v1'],
              rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }],
            },
          ],
        },
      ],
      stubs: { 'removeLabel.example.com': stub.allow({ auditAnnotations: { key1: 'v' } }) },
    });
    const result = await h.admit(review.create(pod()));
    // PodSecurity's own annotation is all that is left.
    expect(result.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' });
    expect(result.dropped.auditAnnotations[0]).toMatchObject({ key: 'removeLabel.example.com/key1' });
  });
});

describe('the request’s own timeout (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go; k8s.io/kubernetes/test/integration/apiserver/admissionwebhook/timeout_test.go)', () => {
  const timeoutOf = (h: Harness, name: string) => h.stub(name).received.map(() => name);

  it('answering at once: mutating 20, 5 and validating 20, 5 under ?timeout=10s see 10, 5, 10, 5', async () => {
    const h = await harness({
      manifests: [
        mutating('m', { name: 'm20.example.com', timeoutSeconds: 20 }, { name: 'm5.example.com', timeoutSeconds: 5 }),
        validating('v', { name: 'v20.example.com', timeoutSeconds: 20 }, { name: 'v5.example.com', timeoutSeconds: 5 }),
      ],
      stubs: { 'm20.example.com': stub.allow(), 'm5.example.com': stub.allow(), 'v20.example.com': stub.allow(), 'v5.example.com': stub.allow() },
    });
    const result = await h.admit(review.create(pod()), { timeoutSeconds: 10 });
    expect(result.trace.calls.map((s) => new URL(s.outcome!.url).searchParams.get('timeout'))).toEqual(['10s', '5s', '10s', '5s']);
    expect(timeoutOf(h, 'm20.example.com')).toHaveLength(1);
  });

  it('sleeping 1 s each: mutating (20, 5, 20) see 10, 5, 8; validating (5, 10, 20) see 5, 7, 7', async () => {
    const slow = stub.delay(1, stub.allow());
    const h = await harness({
      manifests: [
        mutating(
          'm',
          { name: 'ma.example.com', timeoutSeconds: 20 },
          { name: 'mb.example.com', timeoutSeconds: 5 },
          { name: 'mc.example.com', timeoutSeconds: 20 },
        ),
        validating(
          'v',
          { name: 'va.example.com', timeoutSeconds: 5 },
          { name: 'vb.example.com', timeoutSeconds: 10 },
          { name: 'vc.example.com', timeoutSeconds: 20 },
        ),
      ],
      stubs: Object.fromEntries(['ma', 'mb', 'mc', 'va', 'vb', 'vc'].map((n) => [`${n}.example.com`, slow])),
    });
    useTestClock();
    const admitted = h.admit(review.create(pod()), { timeoutSeconds: 10 });
    const received = () => ['ma', 'mb', 'mc', 'va', 'vb', 'vc'].reduce((n, name) => n + h.stub(`${name}.example.com`).received.length, 0);
    // The mutating webhooks one after another, then the three validating ones at once: a second each.
    for (const calls of [1, 2, 3, 6]) {
      await until(() => received() === calls);
      jest.advanceTimersByTime(1000);
    }
    const result = await admitted;
    expect(result).toBeAllowed();
    expect(result.trace.calls.map((s) => new URL(s.outcome!.url).searchParams.get('timeout'))).toEqual(['10s', '5s', '8s', '5s', '7s', '7s']);
  });

  it('a fail-open webhook that outlives the request ends it with 504, and later webhooks are skipped', async () => {
    const h = await harness({
      // The request's 3 s are 300 ms on the call's deadline; the sleepy webhook never answers on the test's clock.
      timeScale: 0.1,
      manifests: [
        mutating('m', { name: 'sleepy.example.com', failurePolicy: 'Ignore', timeoutSeconds: 30 }, { name: 'after.example.com', failurePolicy: 'Ignore' }),
      ],
      stubs: { 'sleepy.example.com': stub.delay(3600, stub.allow()), 'after.example.com': stub.allow() },
    });
    useTestClock();
    const admitted = h.admit(review.create(pod()), { timeoutSeconds: 3 });
    await until(() => h.stub('sleepy.example.com').received.length === 1);
    // The request's time is up on its clock; the call's deadline, for the same 3 s, ends the call for real.
    jest.advanceTimersByTime(300);
    const result = await admitted;
    expect(result.status).toMatchObject({ code: 504, reason: 'Timeout', message: 'Timeout: request did not complete within requested timeout' });
    expect(h.stub('after.example.com').received).toHaveLength(0);
    expect(result.trace.calls[0]!.outcome!.error!.message).toBe(
      'failed calling webhook "sleepy.example.com": failed to call webhook: Post "https://sleepy.example.com/?timeout=3s": context deadline exceeded',
    );
  });
});

describe('what validating webhooks see of a CREATE (k8s.io/apiserver/pkg/registry/generic/registry/store.go)', () => {
  it('the object as the storage strategy left it: generated name, uid and timestamp, which mutating webhooks never see', async () => {
    const h = await harness({
      manifests: [mutating('m', { name: 'm.example.com' }), validating('v', { name: 'v.example.com' })],
      stubs: { 'm.example.com': stub.allow(), 'v.example.com': stub.allow() },
    });
    const pod = objects.pod({ namespace: 'default' });
    delete pod.metadata!.name;
    pod.metadata!.generateName = 'web-';
    await h.admit(review.create(pod));
    const mutatingSaw = h.stub('m.example.com').received[0]!.request!;
    const validatingSaw = h.stub('v.example.com').received[0]!.request!;
    expect(mutatingSaw.name).toBeUndefined();
    expect(mutatingSaw.object!.metadata).not.toHaveProperty('uid');
    expect(validatingSaw.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(validatingSaw.object!.metadata).toMatchObject({
      name: validatingSaw.name,
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      creationTimestamp: expect.any(String),
    });
    expect(validatingSaw.object!.metadata).not.toHaveProperty('resourceVersion');
  });
});
