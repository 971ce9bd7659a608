import type { Status } from '../kube/admission';
import { admitDetails, outcomeDetails } from './describe';
import { asCallOrAdmit } from './subject';

/** What the allow/deny matchers see of either an `h.call()` outcome or an `h.admit()` result. */
export interface Verdict {
  source: 'call' | 'admit';
  allowed: boolean;
  /** Call: the webhook's denial. Admit: the request's rejection, whatever caused it. */
  rejection?: Status;
  /** Call only: a failure subject to failurePolicy. */
  failure?: { message: string; hint: string };
  details(): string;
}

const MATCHED_HINT = "the object could not be converted to the version h.call's `matched` names; check the CRD's conversion webhook";

/** Reads an `h.call()` or `h.admit()` result as a verdict, or says what was passed instead. */
export function asVerdict(received: unknown, matcher: string): Verdict {
  const subject = asCallOrAdmit(received, matcher);
  if (subject.source === 'call') {
    const { call } = subject;
    return {
      source: 'call',
      allowed: call.allowed && !call.error,
      ...(call.denial ? { rejection: call.denial } : {}),
      ...(call.error ? { failure: { message: call.error.message, hint: call.error.hint } } : {}),
      // h.call's `matched`: kube-apiserver refused the request before any call, so neither allowed nor denied.
      ...(call.rejection && !call.error
        ? { failure: { message: `kube-apiserver refused the request before calling the webhook: ${call.rejection.message ?? ''}`, hint: MATCHED_HINT } }
        : {}),
      details: () => outcomeDetails(call),
    };
  }
  const { admit } = subject;
  return {
    source: 'admit',
    allowed: admit.allowed,
    ...(admit.status ? { rejection: admit.status } : {}),
    details: () => admitDetails(admit),
  };
}
