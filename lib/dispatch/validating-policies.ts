import type { Status } from '../kube/admission';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '../kube/admission-policy';
import type { AdmissionAttributes } from '../kube/attributes';
import { admissionForbidden } from '../kube/status';
import { validatePolicy, type PolicyDecision } from '../policy/evaluate-validating';
import { activationFor } from '../policy/scope';
import { matchResources } from '../policy/match-resources';
import { collectParams } from '../policy/params';
import type { DispatchContext } from './context';
import type { TraceStep } from './trace';

/** What the policy plugin needs of the dispatch context. */
export type PolicyDispatchContext = Pick<DispatchContext, 'policies' | 'warnings' | 'annotations' | 'trace'> & Partial<Pick<DispatchContext, 'metrics'>>;

interface Denial {
  policy: ValidatingAdmissionPolicy;
  binding?: ValidatingAdmissionPolicyBinding;
  decision: PolicyDecision;
}

const FAILURE_KEY = 'validation.policy.admission.k8s.io/validation_failure';
// validating/dispatcher.go: longer audit annotation values are cut to this length.
const MAX_AUDIT_ANNOTATION_VALUE = 10 * 1024;

/**
 * The ValidatingAdmissionPolicy plugin (apiserver plugin/policy/validating dispatcher.go `Dispatch`):
 * for each policy whose matchConstraints match, each binding whose matchResources match is evaluated
 * once per param; a failed validation is denied, warned or audited as the binding's validationActions
 * say, and configuration errors meet the policy's failurePolicy. The first denial is the request's:
 * `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<p>' with binding '<b>' denied request: <message>`,
 * with the validation's reason (Invalid: 422).
 */
export function dispatchValidatingPolicies(attributes: AdmissionAttributes, context: PolicyDispatchContext): Status | undefined {
  const policies = context.policies;
  if (!policies || policies.validating.length === 0) return undefined;
  const denials: Denial[] = [];
  const denyOnError = (
    policy: ValidatingAdmissionPolicy,
    binding: ValidatingAdmissionPolicyBinding | undefined,
    error: string,
  ): { outcome: string; errors: string[] } => {
    const message = binding ? `failed to configure binding: ${error}` : `failed to configure policy: ${error}`;
    if (policy.spec.failurePolicy === 'Ignore') return { outcome: `${message} (failurePolicy Ignore: admitted)`, errors: [message] };
    denials.push({ policy, ...(binding ? { binding } : {}), decision: { action: 'deny', evaluation: 'error', message } });
    return { outcome: `${message} (failurePolicy Fail: denied)`, errors: [message] };
  };

  for (const prepared of policies.validating) {
    const { policy } = prepared;
    const step = (binding: string, decision: TraceStep['decision'], why: string[], result: { outcome: string; errors: string[] }): TraceStep => {
      const traced: TraceStep = {
        phase: 'validating-policy',
        round: 0,
        index: -1,
        configuration: policy.metadata.name,
        webhook: binding,
        decision,
        why,
        policy: { kind: 'ValidatingAdmissionPolicy', ...result },
      };
      context.trace.steps.push(traced);
      return traced;
    };
    const matched = matchResources(policy.spec.matchConstraints ?? {}, attributes, policies);
    if (matched.error) {
      step('', 'called', matched.why, denyOnError(policy, undefined, matched.error.message ?? ''));
      continue;
    }
    if (!matched.matches) continue;
    if (prepared.configurationError) {
      step('', 'called', matched.why, denyOnError(policy, undefined, prepared.configurationError));
      continue;
    }
    const annotations = new Map<string, string[]>();
    for (const { binding } of prepared.bindings) {
      const name = binding.metadata.name;
      const why = [...matched.why];
      if (binding.spec.matchResources) {
        const bound = matchResources(binding.spec.matchResources, attributes, policies);
        why.push(...bound.why.map((reason) => `binding: ${reason}`));
        if (bound.error) {
          step(name, 'called', why, denyOnError(policy, binding, bound.error.message ?? ''));
          continue;
        }
        if (!bound.matches) {
          step(name, 'skipped', why, { outcome: '', errors: [] });
          continue;
        }
      }
      const collected = collectParams(policy.spec.paramKind, binding.spec.paramRef, attributes.namespace, policies.params);
      if ('error' in collected) {
        step(name, 'called', why, denyOnError(policy, binding, collected.error));
        continue;
      }
      if (collected.params.length === 0) {
        step(name, 'skipped', [...why, 'no params found and parameterNotFoundAction Allow: the binding is not evaluated'], { outcome: '', errors: [] });
        continue;
      }
      const outcomes: string[] = [];
      const errors: string[] = [];
      for (const params of collected.params) {
        const started = performance.now();
        const result = validatePolicy(prepared.compiled, activationFor(attributes, matched.resource, matched.kind, params, policies));
        const seconds = (performance.now() - started) / 1000;
        errors.push(...result.errors);
        if (result.skipped) {
          outcomes.push(`skipped — ${result.skipped}`);
          continue;
        }
        const observe = (action: 'allow' | 'deny' | 'audit' | 'warn', decision: PolicyDecision) =>
          context.metrics?.policyCheck(policy.metadata.name, name, action, decision.evaluation === 'error', seconds);
        result.decisions.forEach((decision, index) => {
          if (decision.action !== 'deny') {
            if (decision.evaluation === 'error') observe('allow', decision);
            return;
          }
          outcomes.push(`${decision.evaluation === 'error' ? 'failed' : 'failed validation'} [${index}]: ${decision.message}`);
          for (const action of binding.spec.validationActions) {
            if (action === 'Deny') denials.push({ policy, binding, decision });
            else if (action === 'Warn')
              context.warnings.add(`Validation failed for ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${name}': ${decision.message}`);
            else publishValidationFailure(context, binding, index, decision);
            observe(action === 'Deny' ? 'deny' : action === 'Warn' ? 'warn' : 'audit', decision);
          }
        });
        for (const annotation of result.auditAnnotations) {
          if (annotation.action === 'publish') {
            const values = annotations.get(annotation.key) ?? [];
            const value = (annotation.value ?? '').slice(0, MAX_AUDIT_ANNOTATION_VALUE);
            if (!values.includes(value)) values.push(value);
            annotations.set(annotation.key, values);
          } else if (annotation.action === 'error') {
            outcomes.push(`audit annotation ${JSON.stringify(annotation.key)} failed: ${annotation.error ?? ''}`);
            const decision: PolicyDecision = { action: 'deny', evaluation: 'error', message: annotation.error ?? '' };
            denials.push({ policy, binding, decision });
            observe('deny', decision);
          }
        }
      }
      const actions = binding.spec.validationActions.join(', ');
      step(name, 'called', why, {
        outcome: outcomes.length === 0 ? 'every validation passed' : `${outcomes.join('; ')} (validationActions ${actions})`,
        errors,
      });
    }
    // auditAnnotationCollector.publish: one annotation per key, distinct values joined.
    for (const [key, values] of annotations) context.annotations.add(`${policy.metadata.name}/${key}`, values.join(', '));
  }

  const [first] = denials;
  if (!first) return undefined;
  const message = first.binding
    ? `ValidatingAdmissionPolicy '${first.policy.metadata.name}' with binding '${first.binding.metadata.name}' denied request: ${first.decision.message}`
    : `ValidatingAdmissionPolicy '${first.policy.metadata.name}' denied request: ${first.decision.message}`;
  const status = admissionForbidden(attributes, message);
  const reason = first.decision.reason || 'Invalid';
  const rejection: Status = {
    ...status,
    reason,
    code: reasonToCode(reason),
    details: { ...status.details, causes: [...(status.details?.causes ?? []), { message }] },
  };
  // The binding whose denial ends the request carries it in the trace, as a refusing webhook's step does.
  const refusing = context.trace.steps.findLast(
    (s) => s.phase === 'validating-policy' && s.configuration === first.policy.metadata.name && s.webhook === (first.binding?.metadata.name ?? ''),
  );
  if (refusing) refusing.rejection = rejection;
  return rejection;
}

/** `publishValidationFailureAnnotation`: set once per request; a later failure cannot overwrite it (kube only logs that). */
function publishValidationFailure(context: PolicyDispatchContext, binding: ValidatingAdmissionPolicyBinding, index: number, decision: PolicyDecision): void {
  // Go marshals ValidationFailureValue's fields in declaration order.
  const value = JSON.stringify([
    {
      message: decision.message,
      policy: binding.spec.policyName,
      binding: binding.metadata.name,
      expressionIndex: index,
      validationActions: binding.spec.validationActions,
    },
  ]);
  context.annotations.add(FAILURE_KEY, value);
}

/** dispatcher.go `reasonToCode`. */
function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    default:
      return 422;
  }
}
