import type { Status } from '../../lib/kube/admission';
import type { NamespaceSpec } from '../../lib/match/namespace-store';
import type { StubBehavior } from '../../lib/stub';

/** What a case expects of the request's outcome; every key is optional. */
export interface CaseExpectation {
  allowed?: boolean;
  code?: number;
  reason?: string;
  /** The client's message, exactly. */
  message?: string;
  messageContains?: string[];
  /** Webhooks called, in call order (rounds included). */
  called?: string[];
  callCounts?: Record<string, number>;
  /** A subset of the admitted object. */
  object?: unknown;
  /** The warnings as the client receives them, exactly. */
  warnings?: string[];
  /** A subset of the request's audit annotations. */
  auditAnnotations?: Record<string, string>;
  /** Lines that must appear in the Prometheus metrics after the case. */
  metrics?: string[];
  /** For each listed webhook, in order, a subset of the AdmissionRequest it received. */
  sentRequests?: { webhook: string; request: unknown }[];
}

export interface SuiteCase {
  name: string;
  /** The client's own request timeout. */
  requestTimeoutSeconds?: number;
  /** An AdmissionRequest (kind, resource, operation, object, …) as in `reviewFromRequest`. */
  request: unknown;
  /** Stub behaviors for this case, over the suite's. */
  webhooks?: Record<string, StubBehavior>;
  expect: CaseExpectation;
}

/** A declarative suite file (`apiVersion: admission-harness/v1alpha1`, `kind: Suite`). */
export interface Suite {
  /** Where it was read from; manifest paths are relative to its folder. */
  file: string;
  manifests: string[];
  configurations: Record<string, unknown>[];
  namespaces: NamespaceSpec[];
  webhooks: Record<string, StubBehavior>;
  timeScale?: number;
  seed?: number;
  cases: SuiteCase[];
}

/** What one case produced, as `--json` prints it. */
export interface CaseResult {
  name: string;
  passed: boolean;
  failures: string[];
  result: {
    allowed: boolean;
    code?: number;
    reason?: string;
    message?: string;
    called: string[];
    warnings: string[];
    auditAnnotations: Record<string, string>;
  };
  status?: Status;
  durationMs: number;
}

export interface SuiteReport {
  file: string;
  cases: CaseResult[];
  passed: number;
  failed: number;
}
