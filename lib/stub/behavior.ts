import type { JsonPatchOperation, Status } from '../kube/admission';

/** A well-formed answer in the version that was sent, uid echoed. */
export interface StubResponse {
  /** Default true. */
  allowed?: boolean;
  status?: Status;
  /** JSON Patch operations, base64-encoded for the wire. */
  patch?: JsonPatchOperation[];
  /** Patch bytes sent exactly as given (then base64-encoded), for malformed patches. */
  patchRaw?: string;
  /** Default "JSONPatch" when there is a patch. */
  patchType?: string;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** A condition on the request's object, by JSON pointer. A missing member is not equal to anything. */
export type StubCondition =
  | { pointer: string; exists: boolean }
  | { pointer: string; equals: unknown }
  | { pointer: string; notEquals: unknown }
  | { all: StubCondition[] };

/**
 * What a stub webhook does with each review. Exactly one way to answer (`respond`, `rawReview`,
 * `omitResponse`, `http`, `transport`, `unreachable`, `conditional`), optionally after `delaySeconds`.
 */
export interface StubBehavior {
  respond?: StubResponse;
  /** Sent as the body as is; the string "$UID" becomes the request's uid and `{"$base64json": X}` base64 of X's JSON. */
  rawReview?: unknown;
  /** A review with apiVersion, kind and no `response`. */
  omitResponse?: boolean;
  http?: { status: number; contentType?: string; body?: string; headers?: Record<string, string> };
  /** `closeConnection`: read the request, then close without answering. `refuse`: nothing listens. */
  transport?: 'closeConnection' | 'refuse';
  /** Accepts connections and never answers: the call runs into its deadline. */
  unreachable?: boolean;
  /** Waits this long (scaled by the harness's timeScale) before answering. */
  delaySeconds?: number;
  /** The first case whose condition holds answers; `otherwise` (default: allow) when none does. */
  conditional?: { when: StubCondition; respond: StubResponse }[];
  otherwise?: StubResponse;
}

/** Builders for stub behaviors. */
export const stub = {
  allow: (extra: Omit<StubResponse, 'allowed'> = {}): StubBehavior => ({ respond: { ...extra, allowed: true } }),
  deny: (status: Status = {}, extra: Omit<StubResponse, 'allowed' | 'status'> = {}): StubBehavior => ({ respond: { ...extra, allowed: false, status } }),
  patch: (ops: JsonPatchOperation[], extra: Omit<StubResponse, 'patch'> = {}): StubBehavior => ({ respond: { allowed: true, ...extra, patch: ops } }),
  delay: (seconds: number, behavior: StubBehavior = { respond: {} }): StubBehavior => ({ ...behavior, delaySeconds: seconds }),
  http: (status: number, body = '', contentType = 'text/plain', headers: Record<string, string> = {}): StubBehavior => ({
    http: { status, body, contentType, headers },
  }),
  raw: (review: unknown): StubBehavior => ({ rawReview: review }),
  omitResponse: (): StubBehavior => ({ omitResponse: true }),
  closeConnection: (): StubBehavior => ({ transport: 'closeConnection' }),
  refuse: (): StubBehavior => ({ transport: 'refuse' }),
  unreachable: (): StubBehavior => ({ unreachable: true }),
  when: (when: StubCondition, respond: StubResponse, otherwise: StubResponse = {}): StubBehavior => ({ conditional: [{ when, respond }], otherwise }),
};
