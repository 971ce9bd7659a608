import { lint, lintPolicies } from '../lint';
import type { HarnessCore } from './core';
import type { HarnessPolicies } from './policies';
import type { Harness } from './types';

/** `h.lint`: good-practice findings for the manifests' webhooks, and the type checking of their ValidatingAdmissionPolicies. */
export function manifestLint({ webhooks, catalog }: HarnessCore, policies: HarnessPolicies): Pick<Harness, 'lint'> {
  return { lint: () => [...lint(webhooks), ...lintPolicies(policies.validating, catalog)] };
}
