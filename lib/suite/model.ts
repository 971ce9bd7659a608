import type { KubeObject, Status } from '../kube/admission';
import type { NamespaceSpec } from '../match/namespace-store';
import type { PodSecurityConfiguration } from '../plugins/pod-security/configuration';
import type { StubBehavior } from '../stub';

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
  /**
   * Why the harness is known to fail this case (a divergence from kube-apiserver not yet resolved). The
   * case still runs: failing is reported as a known failure, passing as a failure until the mark goes.
   */
  knownFailure?: string;
}

/** The built-in admission plugins a suite's cluster runs without (`disable`) and needs (`enable`), by name. */
export interface SuitePlugins {
  disable?: string[];
  enable?: string[];
}

/** A declarative suite file (`apiVersion: admission-harness/v1alpha1`, `kind: Suite`). */
export interface Suite {
  /** Where it was read from; manifest paths are relative to its folder. */
  file: string;
  /** May be empty, with no configurations either: the built-in plugins and the API's validation alone. */
  manifests: string[];
  configurations: Record<string, unknown>[];
  namespaces: NamespaceSpec[];
  /** Objects the cluster holds before each case (policies' params and the like), in any order. */
  objects: KubeObject[];
  plugins?: SuitePlugins;
  /** kube-apiserver's `--allow-privileged` (false when absent, as its default). */
  allowPrivileged?: boolean;
  /** PodSecurity's configuration (defaults for unlabelled namespaces, exemptions); kube's defaults when absent. */
  podSecurity?: PodSecurityConfiguration;
  webhooks: Record<string, StubBehavior>;
  timeScale?: number;
  seed?: number;
  cases: SuiteCase[];
}

/** What one case produced, as `--json` prints it. */
export interface CaseResult {
  name: string;
  passed: boolean;
  /** `known-failure`: failed as its `knownFailure` mark says; counts neither as passed nor as failed. */
  verdict: 'passed' | 'failed' | 'known-failure';
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
  /** The case's `knownFailure`: it counts as failed only when it passes. */
  knownFailure?: string;
}

export interface SuiteReport {
  file: string;
  cases: CaseResult[];
  passed: number;
  /** Cases that failed, and known failures that passed. */
  failed: number;
  /** Cases marked `knownFailure` that failed, as marked. */
  knownFailures: number;
}
