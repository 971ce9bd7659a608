/**
 * The warnings of a namespace update that tightens its enforce policy (admission.go
 * EvaluatePodsInNamespace): the namespace's existing pods are evaluated against the new enforce level,
 * one pod per controller first, at most 3000, and pods sharing the same failed checks are reported on
 * one line. Upstream also stops after a timeout (at most 1 s); this evaluation always finishes.
 */
import { goQuote } from '../../go/strconv';
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { exemptRuntimeClass, type ResolvedConfiguration } from './configuration';
import { evaluatePod } from './evaluate';
import { levelVersionString, type LevelVersion } from './level-version';
import { listMember, member, stringMember } from './pod-json';
import type { Evaluator } from './registry';
import { goLess, sortedSet } from './text';

const MAX_PODS_TO_CHECK = 3000;

/** The UID of the pod's controlling owner, if any (metav1.GetControllerOf). */
function controllerUid(pod: JsonRecord): string | undefined {
  const owner = listMember(member(pod, 'metadata'), 'ownerReferences')
    .filter(isRecord)
    .find((ref) => ref.controller === true);
  return owner === undefined ? undefined : stringMember(owner, 'uid');
}

/**
 * admission.go prioritizePods: pods with an exempt runtime class are dropped; the first pod of each
 * controller comes first, the other replicas after everything else.
 */
function prioritizePods(pods: readonly JsonRecord[], config: ResolvedConfiguration): JsonRecord[] {
  const first: JsonRecord[] = [];
  const duplicates: JsonRecord[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    if (exemptRuntimeClass(config, member(pod, 'spec')?.runtimeClassName)) continue;
    const uid = controllerUid(pod);
    if (uid === undefined) first.push(pod);
    else if (seen.has(uid)) duplicates.push(pod);
    else {
      seen.add(uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

export function evaluatePodsInNamespace(
  namespace: string,
  enforce: LevelVersion,
  pods: readonly JsonRecord[],
  config: ResolvedConfiguration,
  evaluator?: Evaluator,
): string[] {
  const prioritized = prioritizePods(pods, config);
  const checked = prioritized.slice(0, MAX_PODS_TO_CHECK);
  // Per distinct reason list: the lexically first pod name and how many pods share it.
  const byWarning = new Map<string, { podName: string; count: number }>();
  for (const pod of checked) {
    const result = evaluatePod(enforce, member(pod, 'metadata') ?? {}, member(pod, 'spec') ?? {}, evaluator);
    if (result.allowed) continue;
    const name = stringMember(member(pod, 'metadata'), 'name');
    const entry = byWarning.get(result.forbiddenReason);
    if (entry === undefined) byWarning.set(result.forbiddenReason, { podName: name, count: 1 });
    else {
      if (goLess(name, entry.podName)) entry.podName = name;
      entry.count++;
    }
  }
  const warnings: string[] = [];
  if (checked.length < prioritized.length)
    warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${prioritized.length} existing pods`);
  if (byWarning.size > 0)
    warnings.push(`existing pods in namespace ${goQuote(namespace)} violate the new PodSecurity enforce level ${goQuote(levelVersionString(enforce))}`);
  const podWarnings = [...byWarning].map(([warning, { podName, count }]) => {
    if (count === 1) return `${podName}: ${warning}`;
    if (count === 2) return `${podName} (and 1 other pod): ${warning}`;
    return `${podName} (and ${count - 1} other pods): ${warning}`;
  });
  return [...warnings, ...sortedSet(podWarnings)];
}
