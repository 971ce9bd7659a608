/*
 * What a review built from an audit event cannot know, one sentence each, as the reviews' `limits` list
 * them. Where each gap comes from, in kube-apiserver:
 *
 * - The audit logs requestObject right after decoding the body (endpoints/handlers create.go, update.go:
 *   audit.LogRequestObject), and the decoder already applied the scheme's defaults (and merged a Secret's
 *   stringData into data), so those ARE in requestObject. What happens between that and the first webhook
 *   is not: the field manager records the write in metadata.managedFields, and the built-in mutating
 *   plugins ordered before MutatingAdmissionWebhook change the object.
 * - A patch is logged as the patch document (audit.LogRequestPatch), not as the patched object.
 * - The stored object a webhook gets as oldObject is read inside the registry and never logged.
 */

export const OLD_OBJECT_UNKNOWN = 'oldObject is not in audit events: kube-apiserver sends the stored object here, this review has null';

export const MANAGED_FIELDS_UNKNOWN =
  "metadata.managedFields: the apiserver records this write's entry after the audit logs requestObject, so the object lacks it";

export const PLUGIN_CHANGES_UNKNOWN =
  "changes of the built-in admission plugins that run before webhooks (ServiceAccount, LimitRanger, DefaultTolerationSeconds, Priority…) are not in requestObject: h.admit() applies the harness's own";

export const OBJECT_IS_RESULT =
  "object is the audit's responseObject: the object as stored, after every webhook's and plugin's changes and the registry's (resourceVersion, generation), not the patched object the first webhook saw; the patch itself is the audit's requestObject";

export const POD_DELETE_OPTIONS_UNKNOWN =
  'options: the grace period the pod registry sets before admission is not in the audit; a graceful pod delete is also admitted a second time (the final delete), which the audit does not show';

export const NAMESPACE_DELETE_OPTIONS_UNKNOWN = 'options: the uid precondition the namespace registry adds before admission is not in the audit';

export const COLLECTION_ITEM_AFTER_DELETE =
  'oldObject is the item as the deletecollection response lists it (after its deletion: a graceful one carries deletionTimestamp), not as stored before';

export const NOT_COMPLETED = 'only the ResponseStarted stage was logged: the request had not completed when the log was written';

/** A request that did not succeed may have ended before some webhooks saw it (validating ones come last). */
export function requestFailed(code: number, reason: string | undefined, message: string | undefined): string {
  const why = [reason, message].filter(Boolean).join(': ');
  return `the request failed with ${code}${why ? ` (${why})` : ''}: it may have ended before every webhook saw it`;
}
