import type { Refusal } from '../config/refusal';
import { lint, lintPolicies, refusalFindings } from '../lint';
import type { HarnessCore } from './core';
import type { HarnessPolicies } from './policies';
import type { Harness } from './types';

/**
 * `h.lint`: good-practice findings for the manifests' webhooks, the type checking of their
 * ValidatingAdmissionPolicies, and the objects left out as kube-apiserver refuses them on create
 * (`celRefusals: 'leave-out'`), as `admission-harness lint` reports them.
 */
export function manifestLint({ webhooks, catalog }: HarnessCore, policies: HarnessPolicies, refusals: readonly Refusal[]): Pick<Harness, 'lint'> {
  return { lint: () => [...lint(webhooks), ...lintPolicies(policies.validating, catalog), ...refusalFindings(refusals)] };
}
