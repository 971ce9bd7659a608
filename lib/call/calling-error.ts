import type { Status } from '../kube/admission';
import { internalError } from '../kube/status';
import type { CertificateFailure } from './transport';

/**
 * kube-apiserver's `ErrCallingWebhook` (k8s.io/apiserver/pkg/util/webhook/error.go): a failure subject to failurePolicy. `message`
 * is kube-apiserver's text verbatim; `hint` is the harness's advice on what to fix.
 */
export class CallingError extends Error {
  override readonly name = 'CallingError';
  /** The internal status code kube-apiserver records (metrics `rejection_code`). */
  readonly code: number;
  /** What a client sees when the webhook fails closed (failurePolicy Fail). */
  readonly status: Status;

  constructor(
    readonly webhook: string,
    /** The text after `failed calling webhook "<name>": `. */
    readonly reason: string,
    code: number,
    readonly hint: string,
    /** For a failure on the connection: what kind (nothing listening, closed, TLS, deadline). */
    readonly transport?: 'deadline' | 'refused' | 'tls' | 'closed' | 'plain-http' | 'other',
    /** For a TLS failure of the serving certificate's verification: why it was refused. */
    readonly certificate?: CertificateFailure,
  ) {
    super(`failed calling webhook "${webhook}": ${reason}`);
    this.code = code;
    this.status = internalError(this.message);
  }
}
