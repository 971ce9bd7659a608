import { evaluatePod, LATEST, parseVersion, type Level } from '../lib/plugins/pod-security';
import { podOf } from '../lib/outcome/pod-of';
import { inconclusive, type MatcherContext, type MatcherResult } from './context';
import { report, subjectDetails } from '../lib/outcome/describe';
import { asCallOrAdmit } from '../lib/outcome/subject';

const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];
const WHY_IT_MATTERS =
  'Why it matters: PodSecurity judges the pod after every mutating webhook; in a namespace labelled ' +
  'pod-security.kubernetes.io/enforce with this level, kube-apiserver refuses it with 403 (workloads get warnings).';

/**
 * The pod the subject leaves (`h.call()`: the object after the webhook's patch, as the API decodes and
 * defaults it; `h.admit()`: the admitted object), or a workload's pod template, passes the Pod Security
 * Standards at `level` (`version`: `latest` or `v1.<minor>`), as PodSecurity evaluates it. A failure
 * names each check the pod breaks and the most restrictive level it would pass.
 */
export function toPassPodSecurity(this: MatcherContext, received: unknown, level: Level, version = 'latest'): MatcherResult {
  const subject = asCallOrAdmit(received, 'toPassPodSecurity');
  const hint = this.utils.matcherHint('toPassPodSecurity', 'result', JSON.stringify(level), { isNot: this.isNot });
  if (!LEVELS.includes(level)) throw new TypeError(`toPassPodSecurity expects a level of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
  const parsed = parseVersion(version);
  if (parsed.error) throw new TypeError(`toPassPodSecurity expects a version 'latest' or 'v1.<minor>', got ${JSON.stringify(version)}: ${parsed.error}`);
  const object = podOf(subject);
  if (!object)
    return inconclusive(this, () =>
      report(
        hint,
        'expected a pod or a workload with a pod template to judge, but there is none (a denial, a DELETE, or another kind)',
        subjectDetails(subject),
      ),
    );
  const judge = (at: Level) => evaluatePod({ level: at, version: parsed.value ?? LATEST }, object.metadata, object.spec);
  const verdict = judge(level);
  const name = `"${level}:${version}"`;
  if (verdict.allowed)
    return { pass: true, message: () => report(hint, `expected the pod to violate PodSecurity ${name}, but it passes`, subjectDetails(subject)) };
  const passesAt = [...LEVELS].reverse().find((at) => judge(at).allowed) ?? 'privileged';
  const checks = verdict.failed.map((f) => `  - ${f.forbiddenReason} (${f.forbiddenDetail}) [${f.id}, ${f.level}]`).join('\n');
  return {
    pass: false,
    message: () =>
      report(
        hint,
        `expected the pod to pass PodSecurity ${name}, but it violates:\n${checks}\nIt passes at ${passesAt}.`,
        WHY_IT_MATTERS,
        subjectDetails(subject),
      ),
  };
}
