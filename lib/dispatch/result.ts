import type { KubeObject, Status } from '../kube/admission';
import type { WriteRecord } from '../mockapi/write-log';
import type { AdmissionTrace } from './trace';

/** What a client and the audit log see of one request after the whole admission chain. */
export interface AdmitResult {
  /** True when no webhook rejected the request. */
  allowed: boolean;
  /** The object as admitted (after every mutation); null for DELETE and CONNECT without one. */
  object: KubeObject | null;
  /** The error a client receives when the request was rejected (code, reason, message). */
  status?: Status;
  /** The warnings a client receives, decoded from the `Warning: 299 - "…"` headers. */
  warnings: string[];
  /** The raw `Warning` header values. */
  warningHeaders: string[];
  /** The request's audit annotations: the webhooks' own (`<webhook>/<key>`) and the dispatchers'. */
  auditAnnotations: Record<string, string>;
  /** Warnings and annotations kube-apiserver dropped (it only logs these), with why. */
  dropped: { warnings: { text: string; why: string }[]; auditAnnotations: { key: string; value: string; why: string }[] };
  /** Why no webhook saw the request, when it is exempt from admission webhooks. */
  exempt?: string;
  /** The webhooks' writes to the mock API while the request was admitted (when the harness has one). */
  writes?: WriteRecord[];
  /** Every step of the chain; `String(trace)` prints it as a tree. */
  trace: AdmissionTrace;
  seed: number;
}
