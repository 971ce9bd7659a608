import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { validating } from '../dispatch/helpers';
import { answer, scriptedWebhook } from '../webhooks/handlers';
import { asyncFailure } from './failure';

const request = review.create(objects.pod({ name: 'web-1', namespace: 'shop' }));
const LATENCY_LINE = /Latency: {2}p50 \d+\.\d ms · p95 \d+\.\d ms · p99 \d+\.\d ms · max \d+\.\d ms over 8 calls, 4 in flight/;

describe('toRespondWithin', () => {
  it('passes a webhook that answers at once, against a fixed budget or its timeoutSeconds', async () => {
    const fast = scriptedWebhook((r) => answer(r));
    const h = await createHarness({ target: fast.handler, seed: 11 });
    // A minute: a budget no loaded runner's answer-at-once approaches, so the test asserts the verdict, not a timing.
    const MINUTE = 60_000;
    try {
      const handle = h.webhook({ type: 'validating', path: '/v', name: 'fast.example.com' });
      await expect(handle).toRespondWithin(MINUTE, { review: request, samples: 8 });
      await expect(handle).toRespondWithin('timeoutSeconds', { review: request, samples: 3, concurrency: 2 });
      expect(fast.received).toHaveLength(11);
      const message = await asyncFailure(() => expect(handle).not.toRespondWithin(MINUTE, { review: request, samples: 8 }));
      expect(message).toMatch(/expected fast\.example\.com to exceed 60000\.0 ms at p99, but p99 was \d+\.\d ms and no call ran into its deadline/);
      expect(message).toMatch(LATENCY_LINE);
    } finally {
      await h.close();
    }
  });

  describe('with slow stubs (timeScale 0.01)', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await createHarness({
        seed: 11,
        timeScale: 0.01,
        manifests: [validating('slow', { name: 'slow.example.com', timeoutSeconds: 30 }, { name: 'stuck.example.com', timeoutSeconds: 1 })],
        // The slow webhook waits 1 s configured (10 ms real), over any 5 ms budget; whether it then answers
        // or a stalled runner lets its 300 ms deadline pass, the budget is missed. The stuck one never answers.
        stubs: { 'slow.example.com': stub.delay(1, stub.allow()), 'stuck.example.com': stub.unreachable() },
      });
    });
    afterAll(() => h.close());

    it('fails a budget the webhook cannot meet, printing the percentiles and the budget', async () => {
      const handle = h.webhook('slow.example.com');
      await expect(handle).not.toRespondWithin(5, { review: request, samples: 8 });
      const message = await asyncFailure(() => expect(handle).toRespondWithin(5, { review: request, samples: 8 }));
      expect(message).toMatch(/expected slow\.example\.com to answer within 5\.0 ms at p99, but p99 was \d+\.\d ms/);
      expect(message).toMatch(LATENCY_LINE);
      expect(message).toContain('Budget:   5.0 ms');
      expect(message).toContain('Request:  CREATE pods shop/web-1 → slow.example.com [admission.k8s.io/v1] · seed 11');
      expect(message).toContain('Slowest call:\n  Request:');
    });

    it('fails when calls run into their deadline, with kube-apiserver’s error', async () => {
      const message = await asyncFailure(() => expect(h.webhook('stuck.example.com')).toRespondWithin('timeoutSeconds', { review: request, samples: 8 }));
      expect(message).toContain('8 of 8 calls ran into their deadline');
      expect(message).toContain('Budget:   10.0 ms (timeoutSeconds 1 × timeScale 0.01)');
      expect(message).toContain(
        'Failures: 8 ran into their deadline; the first:\n  failed calling webhook "stuck.example.com": failed to call webhook: Post "https://stuck.example.com/?timeout=1s": context deadline exceeded',
      );
      expect(message).toMatch(LATENCY_LINE);
    });

    it('wants a webhook handle, a review and sensible options', async () => {
      await expect(expect(h).toRespondWithin(5, { review: request })).rejects.toThrow('got the harness itself; pass h.webhook(name)');
      const handle = h.webhook('slow.example.com');
      await expect(expect(handle).toRespondWithin(5, {} as { review: typeof request })).rejects.toThrow(
        'toRespondWithin needs the request to send: toRespondWithin(budget, { review })',
      );
      await expect(expect(handle).toRespondWithin(5, { review: request, samples: 0 })).rejects.toThrow(
        'toRespondWithin: samples must be a positive integer, got 0',
      );
      await expect(expect(handle).toRespondWithin(-1, { review: request })).rejects.toThrow(
        "toRespondWithin expects a budget in milliseconds or 'timeoutSeconds', got -1",
      );
    });
  });
});
