import { createHarness, objects, review, type Harness } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';
import { answer, scriptedWebhook, type Answer } from '../webhooks/handlers';

let script: (r: AdmissionReview) => Answer = (r) => answer(r);
const webhook = scriptedWebhook((r) => script(r));
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: webhook.handler, seed: 99 });
});
afterAll(() => h.close());

async function outcomeOf(reply: (r: AdmissionReview) => Answer) {
  script = reply;
  return h.call({ type: 'validating', name: 'guard.example.com', path: '/v' }, review.create(objects.pod({ name: 'web-1', namespace: 'shop' })));
}

/** The message of a failed expectation. */
function failure(run: () => void): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the expectation passed');
}

describe('matcher failure messages', () => {
  it('toBeAllowed on a denial shows the client-visible message, the request and the seed', async () => {
    const outcome = await outcomeOf((r) => answer(r, { allowed: false, status: { code: 403, message: 'no :latest' } }));
    const message = failure(() => expect(outcome).toBeAllowed());
    expect(message).toContain('but it denied it:\n  admission webhook "guard.example.com" denied the request: no :latest');
    expect(message).toContain('Request:  CREATE pods shop/web-1 → guard.example.com [admission.k8s.io/v1] · seed 99 (replay: ADMISSION_HARNESS_SEED=99)');
    expect(message).toContain('Status:   403');
  });

  it('toBeAllowed on a failed call shows kube-apiserver’s error and a hint', async () => {
    const outcome = await outcomeOf((r) => answer(r, { uid: 'wrong' }));
    const message = failure(() => expect(outcome).toBeAllowed());
    expect(message).toContain(
      `but the call failed:\n  failed calling webhook "guard.example.com": received invalid webhook response: expected response.uid="${outcome.review.request!.uid}", got "wrong"`,
    );
    expect(message).toContain('Hint:     copy request.uid into response.uid');
  });

  it('toBeDenied names each mismatch', async () => {
    const outcome = await outcomeOf((r) => answer(r, { allowed: false, status: { code: 403, message: 'nope', reason: 'Forbidden' } }));
    expect(outcome).toBeDenied({ code: 403, message: 'nope', reason: 'Forbidden' });
    expect(outcome).toBeDenied({ message: /denied the request: no/ });
    const message = failure(() => expect(outcome).toBeDenied({ code: 422, message: 'other' }));
    expect(message).toContain('code: expected');
    expect(message).toContain('message: expected');
    expect(message).not.toContain('reason: expected');
  });

  it('toBeDenied does not count a failed call as a denial', async () => {
    const outcome = await outcomeOf(() => ({ raw: 'boom', status: 500 }));
    expect(outcome).not.toBeDenied();
    expect(failure(() => expect(outcome).toBeDenied())).toContain('the call failed instead of returning a denial');
  });

  it('.not.toBeAllowed explains the pass', async () => {
    const outcome = await outcomeOf((r) => answer(r));
    expect(failure(() => expect(outcome).not.toBeAllowed())).toContain('expected the webhook not to allow the request, but it allowed it');
  });

  it('toEchoUid shows both uids', async () => {
    const outcome = await outcomeOf((r) => answer(r, { uid: 'other' }));
    expect(outcome).not.toEchoUid();
    const message = failure(() => expect(outcome).toEchoUid());
    expect(message).toContain('expected response.uid');
    expect(message).toContain(outcome.review.request!.uid);
    expect(message).toContain('"other"');
  });

  it('rejects something that is not a call outcome', () => {
    expect(() => expect({}).toBeAllowed()).toThrow('toBeAllowed expects the result of h.call() or h.admit(), got object');
  });
});
