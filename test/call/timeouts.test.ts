import { createHarness, objects, review } from '../../lib';
import { goDurationSeconds, timeoutParameter } from '../../lib/call/go-duration';
import { answer, scriptedWebhook } from '../webhooks/handlers';

describe('deadlines (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go, validating/dispatcher.go)', () => {
  it('fails a call that outlives timeoutSeconds with the Go deadline text, scaled by timeScale', async () => {
    // The webhook answers after 2 s of real time: unscaled, timeoutSeconds 5 would let it answer; with
    // timeScale 0.01 the deadline is 50 ms, so the failure itself proves the scaling. No machine's speed
    // changes the outcome: the deadline's timer is set before the webhook's, for an earlier time, and
    // Node fires timers in the order they are due.
    const slow = scriptedWebhook((r) => ({ delayMs: 2_000, then: answer(r) }));
    const h = await createHarness({ target: slow.handler, seed: 1, timeScale: 0.01 });
    try {
      expect(h.timeScale).toBe(0.01);
      const outcome = await h.call({ type: 'validating', name: 'slow.example.com', path: '/v', timeoutSeconds: 5 }, review.create(objects.pod()));
      // The URL keeps the configured deadline, whatever the scale.
      expect(outcome.error?.message).toBe(
        'failed calling webhook "slow.example.com": failed to call webhook: Post "https://localhost/v?timeout=5s": context deadline exceeded',
      );
      expect(outcome.error?.code).toBe(503);
    } finally {
      await h.close();
    }
  });

  it('answers that arrive within the deadline succeed, and the webhook reads the configured deadline in the URL', async () => {
    // Unscaled: a call that must succeed keeps its whole 10 s, which no loaded runner's call approaches.
    const quick = scriptedWebhook((r) => ({ delayMs: 5, then: answer(r) }));
    const h = await createHarness({ target: quick.handler, seed: 1 });
    try {
      expect(await h.call({ type: 'validating', path: '/v', timeoutSeconds: 10 }, review.create(objects.pod()))).toBeAllowed();
      expect(quick.received[0]?.url).toBe('/v?timeout=10s');
    } finally {
      await h.close();
    }
  });

  it.each([
    [0, '0s'],
    [5, '5s'],
    [30, '30s'],
    [90, '1m30s'],
    [3600, '1h0m0s'],
  ])('formats %i s as Go does: %s', (seconds, text) => {
    expect(goDurationSeconds(seconds)).toBe(text);
  });

  it('rounds the time left up to a whole second', () => {
    expect(timeoutParameter(10_000)).toBe('10s');
    expect(timeoutParameter(7_001)).toBe('8s');
    expect(timeoutParameter(4_200)).toBe('5s');
  });
});

describe('retries (k8s.io/client-go/rest/with_retry.go)', () => {
  async function callWith(answers: ((r: import('../../lib/kube/admission').AdmissionReview) => import('../webhooks/handlers').Answer)[]) {
    let n = 0;
    const webhook = scriptedWebhook((r) =>
      (answers[Math.min(n++, answers.length - 1)] as (r: import('../../lib/kube/admission').AdmissionReview) => import('../webhooks/handlers').Answer)(r),
    );
    // Unscaled, with the longest deadline the API allows: a retry after Retry-After 1 waits a real second,
    // and the calls that must succeed have 30 s. Retry-After 60 is past the deadline from the start.
    const h = await createHarness({ target: webhook.handler, seed: 1 });
    try {
      return { outcome: await h.call({ type: 'validating', timeoutSeconds: 30 }, review.create(objects.pod())), calls: webhook.received.length };
    } finally {
      await h.close();
    }
  }

  it('retries a 429 or 5xx that carries an integer Retry-After', async () => {
    const { outcome, calls } = await callWith([() => ({ raw: 'busy', status: 503, headers: { 'Retry-After': '1' } }), (r) => answer(r)]);
    expect(outcome).toBeAllowed();
    expect(calls).toBe(2);
  });

  it('does not retry a plain 500', async () => {
    const { outcome, calls } = await callWith([() => ({ raw: 'boom', status: 500 }), (r) => answer(r)]);
    expect(outcome.error?.code).toBe(500);
    expect(calls).toBe(1);
  });

  it('gives up at the deadline when Retry-After points past it', async () => {
    const { outcome, calls } = await callWith([() => ({ raw: 'later', status: 429, headers: { 'Retry-After': '60' } })]);
    expect(outcome.error?.message).toBe(
      'failed calling webhook "validating.harness.local": failed to call webhook: Post "https://localhost/?timeout=30s": context deadline exceeded',
    );
    expect(calls).toBe(1);
  });
});
