/**
 * One pod evaluated against one level and version, with the texts admission.go builds from the failed
 * checks (policy/checks.go AggregateCheckResults, ForbiddenReason, ForbiddenDetail).
 */
import { goQuote } from '../../go/strconv';
import type { JsonRecord } from '../../kube/record';
import { levelVersionString, type LevelVersion } from './level-version';
import { DEFAULT_EVALUATOR, type Evaluator } from './registry';

/** checks.go UnknownForbiddenReason: what a check that fails without a reason is reported as. */
const UNKNOWN_FORBIDDEN_REASON = 'unknown forbidden reason';

export interface FailedCheck {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  readonly forbiddenReason: string;
  readonly forbiddenDetail: string;
}

export interface PodEvaluation {
  readonly levelVersion: LevelVersion;
  readonly allowed: boolean;
  /** The failed checks, in upstream's order. */
  readonly failed: readonly FailedCheck[];
  /** `host ports, privileged`: the reasons alone (the namespace-relabel warnings use this). */
  readonly forbiddenReason: string;
  /** `privileged (container "x" must not …), allowPrivilegeEscalation != false (…)`. */
  readonly forbiddenDetail: string;
}

/** `AggregateCheckResult.ForbiddenDetail()`: each reason, its detail in parentheses when there is one. */
function detailOf(failed: readonly FailedCheck[]): string {
  return failed.map((f) => (f.forbiddenDetail === '' ? f.forbiddenReason : `${f.forbiddenReason} (${f.forbiddenDetail})`)).join(', ');
}

/**
 * Evaluates a pod's (or a pod template's) metadata and spec, as JSON, at `levelVersion`. A
 * `privileged` level allows everything.
 */
export function evaluatePod(levelVersion: LevelVersion, podMetadata: JsonRecord, podSpec: JsonRecord, evaluator: Evaluator = DEFAULT_EVALUATOR): PodEvaluation {
  const failed = evaluator.evaluatePod(levelVersion, podMetadata, podSpec).flatMap(({ id, level, result }): FailedCheck[] =>
    result.allowed
      ? []
      : [
          {
            id,
            level,
            forbiddenReason: result.forbiddenReason === '' ? UNKNOWN_FORBIDDEN_REASON : result.forbiddenReason,
            forbiddenDetail: result.forbiddenDetail,
          },
        ],
  );
  return {
    levelVersion,
    allowed: failed.length === 0,
    failed,
    forbiddenReason: failed.map((f) => f.forbiddenReason).join(', '),
    forbiddenDetail: detailOf(failed),
  };
}

/** The enforce denial's cause: `violates PodSecurity "restricted:latest": …` (after `<resource> "<name>" is forbidden: `). */
export function violatesMessage(evaluation: PodEvaluation): string {
  return `violates PodSecurity ${goQuote(levelVersionString(evaluation.levelVersion))}: ${evaluation.forbiddenDetail}`;
}

/** The warn-mode warning and the audit-mode annotation: `would violate PodSecurity "restricted:latest": …`. */
export function wouldViolateMessage(evaluation: PodEvaluation): string {
  return `would violate PodSecurity ${goQuote(levelVersionString(evaluation.levelVersion))}: ${evaluation.forbiddenDetail}`;
}
