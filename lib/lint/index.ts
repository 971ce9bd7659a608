export { lint, LINT_RULES } from './rules';
export type { Finding, LintRule, Severity } from './rules';
export { lintPolicies } from './policies';
export { leaveOutRefused, REFUSAL_FINDING_IDS, refusalFindings, refusalsOnCreate } from './refusals';
