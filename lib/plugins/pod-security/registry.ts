/**
 * The evaluator: which checks run for a level and version, and in what order (policy/registry.go).
 *
 * - `privileged` runs nothing.
 * - A version newer than the newest check revision, and `latest`, read as that newest revision's version
 *   (maxVersion), lowered to the apiserver's emulated version when that is older. At v1.36, whose newest
 *   revisions are 1.35's, `latest` and `v1.36` both mean v1.35.
 * - Each check runs the last revision whose minimum version is at or below the version; a check with no
 *   such revision does not run.
 * - `restricted` runs the restricted checks and the baseline checks no active restricted revision
 *   overrides.
 * - Order: baseline check IDs sorted, then restricted IDs sorted (Go string order), so messages are stable.
 */
import type { JsonRecord } from '../../kube/record';
import type { Check, CheckResult, VersionedCheck } from './check';
import { DEFAULT_CHECKS } from './checks';
import type { LevelVersion } from './level-version';
import { goLess } from './text';

/** The minor version kube-apiserver v1.36 reports, which bounds the policy versions it evaluates. */
export const KUBE_MINOR_VERSION = 36;

/** One check's outcome, with the check it came from. */
export interface IdentifiedResult {
  readonly id: string;
  readonly level: Check['level'];
  readonly result: CheckResult;
}

export interface Evaluator {
  /** The newest policy version evaluated; `latest` and newer versions read as this one. */
  readonly maxVersion: number;
  /** `Evaluator.EvaluatePod`: every applicable check's result, in upstream's order. */
  evaluatePod(lv: LevelVersion, podMetadata: JsonRecord, podSpec: JsonRecord): IdentifiedResult[];
}

/** registry.go validateChecks: the rules a check list must follow to make an evaluator. */
function validateChecks(checks: readonly Check[]): void {
  const levels = new Map<string, Check['level']>();
  for (const check of checks) {
    if (levels.has(check.id)) throw new Error(`multiple checks registered for ID ${check.id}`);
    levels.set(check.id, check.level);
    if (check.versions.length === 0) throw new Error(`check ${check.id}: empty`);
    check.versions.forEach((version, i) => {
      const previous = check.versions[i - 1];
      if (previous !== undefined && previous.minimumVersion >= version.minimumVersion)
        throw new Error(`check ${check.id}: versions must be strictly increasing`);
    });
  }
  for (const check of checks) {
    for (const version of check.versions) {
      if ((version.overrides?.length ?? 0) > 0 && check.level !== 'restricted') throw new Error(`check ${check.id}: only restricted checks may set overrides`);
      for (const id of version.overrides ?? []) {
        const level = levels.get(id);
        if (level !== undefined && level !== 'baseline') throw new Error(`check ${check.id}: overrides ${level} check ${id}`);
      }
    }
  }
}

const byId = (a: Check, b: Check): number => (goLess(a.id, b.id) ? -1 : goLess(b.id, a.id) ? 1 : 0);

/** The revision of `check` that applies at `minor`, if any. */
function revisionAt(check: Check, minor: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const version of check.versions) if (version.minimumVersion <= minor) found = version;
  return found;
}

/**
 * `NewEvaluator(checks, emulationVersion)`. `emulationMinor` is the apiserver's emulated minor version
 * (`--emulated-version`; v1.36 by default).
 */
export function createEvaluator(checks: readonly Check[] = DEFAULT_CHECKS, emulationMinor: number = KUBE_MINOR_VERSION): Evaluator {
  validateChecks(checks);
  const newest = Math.max(0, ...checks.map((c) => c.versions[c.versions.length - 1]?.minimumVersion ?? 0));
  const maxVersion = Math.min(newest, emulationMinor);
  const baseline = checks.filter((c) => c.level === 'baseline').sort(byId);
  const restricted = checks.filter((c) => c.level === 'restricted').sort(byId);

  return {
    maxVersion,
    evaluatePod(lv, podMetadata, podSpec) {
      if (lv.level === 'privileged') return [];
      const minor = lv.version.latest || lv.version.minor > maxVersion ? maxVersion : lv.version.minor;
      const active = (list: readonly Check[]): [Check, VersionedCheck][] =>
        list.flatMap((check): [Check, VersionedCheck][] => {
          const revision = revisionAt(check, minor);
          return revision === undefined ? [] : [[check, revision]];
        });
      let run = active(baseline);
      if (lv.level === 'restricted') {
        const restrictedRevisions = active(restricted);
        const overridden = new Set(restrictedRevisions.flatMap(([, revision]) => revision.overrides ?? []));
        run = [...run.filter(([check]) => !overridden.has(check.id)), ...restrictedRevisions];
      }
      return run.map(([check, revision]) => ({ id: check.id, level: check.level, result: revision.checkPod(podMetadata, podSpec) }));
    },
  };
}

/** The evaluator kube-apiserver v1.36 builds from the default checks. */
export const DEFAULT_EVALUATOR: Evaluator = createEvaluator();
