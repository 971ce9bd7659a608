import { CallingError } from '../call/calling-error';
import { goQuote } from '../go/strconv';
import type { Status } from '../kube/admission';
import { badRequest } from '../kube/status';
import type { MutatingWebhook } from '../kube/webhook-config';

/**
 * sideEffects × dryRun (the webhook dispatchers in k8s.io/apiserver/pkg/admission/plugin/webhook): on a dryRun request, a webhook that may have side effects is
 * not called. Unknown/Some reject the request (not subject to failurePolicy); an unset value (only
 * possible outside the v1 API) is a calling error.
 */
export function dryRunRefusal(webhook: MutatingWebhook, dryRun: boolean): { rejection: Status } | { error: CallingError } | undefined {
  if (!dryRun) return undefined;
  if (webhook.sideEffects === undefined) {
    return { error: new CallingError(webhook.name, 'Webhook SideEffects is nil', 400, 'set sideEffects to None or NoneOnDryRun') };
  }
  if (webhook.sideEffects === 'None' || webhook.sideEffects === 'NoneOnDryRun') return undefined;
  return { rejection: badRequest(`admission webhook ${goQuote(webhook.name)} does not support dry run`) };
}
