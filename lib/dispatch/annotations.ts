import { goQuote } from '../go/strconv';
import { isDns1123Subdomain } from '../kube/names';

const QUALIFIED_NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

// Keys already found well-formed: every mutating call adds one of the same few
// (`mutation.webhook.admission.k8s.io/round_0_index_<i>`), and checking one is a split and two regexps.
// Bounded, as webhooks choose their own audit keys.
const WELL_FORMED = new Set<string>();
const WELL_FORMED_KEPT = 1024;

/** Why kube-apiserver refuses an audit annotation key (`checkKeyFormat`), or undefined. */
function keyProblem(key: string): string | undefined {
  if (WELL_FORMED.has(key)) return undefined;
  const problem = checkKey(key);
  if (!problem && WELL_FORMED.size < WELL_FORMED_KEPT) WELL_FORMED.add(key);
  return problem;
}

function checkKey(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length !== 2)
    return "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')";
  const [prefix, name] = parts as [string, string];
  if (!isDns1123Subdomain(prefix)) return `prefix ${goQuote(prefix)} is not a lowercase DNS-1123 subdomain`;
  if (name.length === 0 || name.length > 63 || !QUALIFIED_NAME_PART.test(name))
    return `name part ${goQuote(name)} must be 1-63 characters of [A-Za-z0-9-_.], starting and ending with an alphanumeric character`;
  return undefined;
}

/**
 * The audit annotations of one API request (apiserver admission `attributesRecord`): keys must be
 * qualified names with one `/`, and a key may not be set again to another value. Refused ones are
 * kept in `dropped` with the reason; kube-apiserver only logs them.
 */
export class AuditAnnotations {
  readonly values: Record<string, string> = {};
  readonly dropped: { key: string; value: string; why: string }[] = [];

  add(key: string, value: string): void {
    const problem = keyProblem(key);
    if (problem) {
      this.dropped.push({ key, value, why: problem });
      return;
    }
    const existing = this.values[key];
    if (existing !== undefined && existing !== value) {
      this.dropped.push({
        key,
        value,
        why: `admission annotations are not allowed to be overwritten, key:${goQuote(key)}, old value: ${existing}, new value: ${value}`,
      });
      return;
    }
    this.values[key] = value;
  }
}

/** `mutation.webhook.admission.k8s.io/round_<r>_index_<i>`, written for every matched mutating webhook. */
export function mutationAnnotation(round: number, index: number, configuration: string, webhook: string, mutated: boolean): [string, string] {
  return [`mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({ configuration, webhook, mutated })];
}

/** `patch.webhook.admission.k8s.io/round_<r>_index_<i>`, written for every applied non-empty patch. */
export function patchAnnotation(round: number, index: number, configuration: string, webhook: string, patch: unknown): [string, string] {
  return [`patch.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({ configuration, webhook, patch, patchType: 'JSONPatch' })];
}

export function failedOpenAnnotation(type: 'mutation' | 'validating', round: number, index: number, webhook: string): [string, string] {
  return [`failed-open.${type}.webhook.admission.k8s.io/round_${round}_index_${index}`, webhook];
}
