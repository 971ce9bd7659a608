/**
 * What a refused pod update changed, printed after kube's stable prefix (`pod updates may not change
 * fields other than …`, pkg/apis/core/validation ValidatePodUpdate). This diff is the harness's own,
 * not kube's: upstream appends `cmp.Diff(oldPod.Spec, mungedPodSpec)` of the internal core.PodSpec, and
 * go-cmp randomizes its output on purpose (spaces against non-breaking spaces, from run to run) so that
 * nobody depends on it; no test can match it, so the harness does not imitate it. It lists each member
 * of the v1 spec that differs, one line each, in the form the matchers' failure messages use
 * (lib/diff/json-diff.ts): `changed /spec/containers/0/ports/0/containerPort: 3000 → 3030`.
 */
import type { JsonObject } from '../../kube/json';
import { diffJson, formatChanges } from '../../diff/json-diff';
import { semanticEqualAs } from '../equality';

/** The members of the pod spec that differ from `old` to `updated`, one indented line each. */
export function podSpecDiff(old: JsonObject, updated: JsonObject): string {
  // A member the munging set to null where the old spec had none is no change (Semantic.DeepEqual).
  const changes = diffJson(old, updated, '/spec').filter((change) => !semanticEqualAs(undefined, change.before, change.after));
  return formatChanges(changes);
}
