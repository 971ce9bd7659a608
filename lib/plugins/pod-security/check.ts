/**
 * What a Pod Security Standards check is (policy/checks.go): an ID, the level it belongs to, and one or
 * more revisions, each applying from a policy version on until the next revision. A restricted revision
 * may override baseline checks (OverrideCheckIDs), which then do not run at the restricted level.
 */
import type { JsonRecord } from '../../kube/record';

export type CheckLevel = 'baseline' | 'restricted';

/** `CheckResult`: allowed, or the succinct reason and the detail naming what is forbidden. */
export type CheckResult = { readonly allowed: true } | { readonly allowed: false; readonly forbiddenReason: string; readonly forbiddenDetail: string };

export const ALLOWED: CheckResult = { allowed: true };

export function forbidden(forbiddenReason: string, forbiddenDetail: string): CheckResult {
  return { allowed: false, forbiddenReason, forbiddenDetail };
}

/** Evaluates a pod (or a template's) metadata and spec, as JSON. */
export type CheckPodFn = (podMetadata: JsonRecord, podSpec: JsonRecord) => CheckResult;

export interface VersionedCheck {
  /** The first policy minor version (1.x) this revision applies to. */
  readonly minimumVersion: number;
  readonly checkPod: CheckPodFn;
  /** Baseline check IDs this restricted revision replaces at the restricted level. */
  readonly overrides?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: CheckLevel;
  /** Revisions in strictly increasing minimumVersion order. */
  readonly versions: readonly VersionedCheck[];
}
