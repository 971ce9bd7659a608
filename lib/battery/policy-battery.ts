import type { WebhookEntry } from '../config/load';
import type { Harness, PolicyEvaluation } from '../harness';
import type { MutatingAdmissionPolicy, ValidatingAdmissionPolicy } from '../kube/admission-policy';
import { SeededRandom } from '../random';
import { scenariosFor, type Scenario } from './requests';

/** Stable ids of the policy checks. */
export type PolicyCheckId = 'policy-evaluates';

export interface PolicyCheckResult {
  id: PolicyCheckId;
  policy: string;
  scenario: string;
  status: 'pass' | 'fail';
  detail?: string;
}

export interface PolicyScenarioResult {
  policy: string;
  kind: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';
  scenario: string;
  evaluation: PolicyEvaluation;
  checks: PolicyCheckResult[];
}

/** One scenario of the battery for one ValidatingAdmissionPolicy. */
export interface PlannedPolicyScenario {
  policy: string;
  scenario: Scenario;
}

/**
 * The battery's requests for each admission policy (validating and mutating): every request the battery builds that its
 * matchConstraints' resourceRules match (the same requests the webhooks get: each operation, DELETE
 * without an object, subresources, CONNECT, dryRun), in a deterministic order for the seed.
 */
export function planPolicies(
  policies: readonly { policy: ValidatingAdmissionPolicy | MutatingAdmissionPolicy }[],
  seed: number,
): { plan: PlannedPolicyScenario[]; skipped: { webhook: string; reason: string }[] } {
  const random = new SeededRandom(seed + 1);
  const plan: PlannedPolicyScenario[] = [];
  const skipped: { webhook: string; reason: string }[] = [];
  for (const { policy } of policies) {
    const rules = policy.spec.matchConstraints?.resourceRules ?? [];
    // The request builders pick requests by rules alone, as they do for a webhook.
    const asRules = { spec: { name: policy.metadata.name, rules } } as unknown as WebhookEntry;
    const { scenarios } = scenariosFor(asRules, random);
    if (scenarios.length === 0)
      skipped.push({ webhook: `${policy.kind} ${policy.metadata.name}`, reason: 'its resourceRules match none of the requests the battery builds' });
    for (const scenario of scenarios) plan.push({ policy: policy.metadata.name, scenario });
  }
  return { plan, skipped };
}

/**
 * `policy-evaluates`: on every request the policy matches, its expressions evaluate without error. An
 * error is decided by failurePolicy in production: with Fail, every such request is denied (a validation
 * reading `object.spec` on a DELETE, whose object is null, is the classic); with Ignore, the policy
 * silently stops protecting anything.
 */
export async function runPolicyScenario(harness: Harness, planned: PlannedPolicyScenario): Promise<PolicyScenarioResult> {
  const handle = harness.policy(planned.policy);
  const evaluation = await handle.evaluate(planned.scenario.review);
  const failurePolicy =
    [...harness.validatingPolicies, ...harness.mutatingPolicies].find((p) => p.policy.metadata.name === planned.policy)?.policy.spec.failurePolicy ?? 'Fail';
  const consequence = failurePolicy === 'Fail' ? 'failurePolicy Fail denies every such request' : 'failurePolicy Ignore admits the request unchecked';
  const errors = [...new Set(evaluation.errors)];
  const check: PolicyCheckResult =
    errors.length === 0
      ? { id: 'policy-evaluates', policy: planned.policy, scenario: planned.scenario.title, status: 'pass' }
      : {
          id: 'policy-evaluates',
          policy: planned.policy,
          scenario: planned.scenario.title,
          status: 'fail',
          detail: `${errors.join('; ')} (${consequence}; guard the expression, e.g. with has() or request.operation)`,
        };
  return { policy: planned.policy, kind: handle.kind, scenario: planned.scenario.title, evaluation, checks: [check] };
}
