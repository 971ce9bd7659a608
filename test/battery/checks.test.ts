// The battery's transport checks decide from the kind the transport gives a failure (CallingError's
// `transport` and `certificate`), never from its text: a webhook's own words cannot fail or pass them.
import { CHECKS, type CheckContext, type CheckId } from '../../lib/battery/checks';
import { CallingError } from '../../lib/call/calling-error';
import { emptyOutcome, type CallOutcome } from '../../lib/call/call-webhook';

const webhook = { name: 'guard.example.com', configuration: 'guard', type: 'validating' as const };
const context: CheckContext = { timeoutMs: 10_000, kind: 'main' };

function failed(reason: string, transport?: CallingError['transport'], certificate?: CallingError['certificate']): CallOutcome {
  const outcome = emptyOutcome(
    webhook as Parameters<typeof emptyOutcome>[0],
    { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' } as Parameters<typeof emptyOutcome>[1],
  );
  outcome.error = new CallingError(webhook.name, reason, 503, 'a hint', transport, certificate);
  return outcome;
}

const verdict = (id: CheckId, outcome: CallOutcome) => CHECKS.find((c) => c.id === id)?.verify(outcome, context);
const post = 'failed to call webhook: Post "https://guard.hooks.svc:443/validate?timeout=10s": ';

describe("the battery's TLS and deadline checks", () => {
  it('fail tls-chain on a certificate refused for its authority or its validity, with the text as detail', () => {
    const unknown = failed(`${post}tls: failed to verify certificate: x509: certificate signed by unknown authority`, 'tls', 'unknown-authority');
    expect(verdict('tls-chain', unknown)).toEqual({ pass: false, detail: unknown.error?.reason });
    expect(
      verdict('tls-chain', failed(`${post}tls: failed to verify certificate: x509: certificate has expired or is not yet valid`, 'tls', 'expired')),
    ).toMatchObject({ pass: false });
    expect(verdict('tls-san', unknown)).toEqual({ pass: true });
  });

  it('fail tls-san on a certificate refused for its names', () => {
    const name = failed(`${post}tls: failed to verify certificate: x509: certificate is valid for guard.hooks, not guard.hooks.svc`, 'tls', 'name');
    expect(verdict('tls-san', name)).toEqual({ pass: false, detail: name.error?.reason });
    expect(verdict('tls-chain', name)).toEqual({ pass: true });
  });

  it('fail timeout-budget on a call the transport cut off at its deadline', () => {
    expect(verdict('timeout-budget', failed(`${post}context deadline exceeded`, 'deadline'))).toMatchObject({ pass: false });
  });

  it('do not read the text: a failure that only says the words is not a certificate or deadline failure', () => {
    // A webhook answering HTTP 500 with these words in its body: kube-apiserver prints the body in the error.
    const words = failed(
      'failed to call webhook: x509: certificate signed by unknown authority; x509: certificate is valid for a, not b; context deadline exceeded',
    );
    expect(verdict('tls-chain', words)).toEqual({ pass: true });
    expect(verdict('tls-san', words)).toEqual({ pass: true });
    expect(verdict('timeout-budget', words)).toEqual({ pass: true });
  });
});
