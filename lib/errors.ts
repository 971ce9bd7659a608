/** Machine-readable causes of harness errors; stable across releases so tests may match on them. */
export type HarnessErrorCode =
  | 'MANIFEST_INVALID'
  | 'MANIFEST_UNREADABLE'
  | 'WEBHOOK_NOT_FOUND'
  | 'WEBHOOK_AMBIGUOUS'
  | 'POLICY_NOT_FOUND'
  | 'TARGET_INVALID'
  | 'TARGET_UNAVAILABLE'
  | 'REVIEW_INVALID'
  | 'HARNESS_CLOSED'
  | 'USAGE';

/**
 * The one error type the harness throws for problems in what the user gave it (manifests, targets,
 * reviews). Webhook misbehaviour is never thrown: it is reported in a call outcome, as kube-apiserver
 * would report it.
 */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';

  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    /** What to change to make it work. */
    readonly hint?: string,
    options?: { cause?: unknown },
  ) {
    super(hint ? `${message}\n  hint: ${hint}` : message, options);
  }
}
