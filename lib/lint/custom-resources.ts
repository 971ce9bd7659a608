import type { FieldError } from '../kube/status';
import type { Finding } from './rules';

/** A refusal is about cost when kube's text says so (validation.go `getCostErrorMessage` and the total's). */
const isCostError = (error: FieldError): boolean => /estimated (rule|messageExpression) cost|estimated rule cost total/.test(error.body);

/**
 * The errors kube-apiserver would refuse the manifests' CustomResourceDefinitions with on create
 * (their x-kubernetes-validations: compile errors and static cost estimates past the limits), as
 * findings with kube's texts: `Registry.prepare()`'s answer. A harness refuses to load such CRDs; lint
 * names them all at once.
 */
export function customResourceFindings(refused: readonly { resource: string; errors: readonly FieldError[] }[]): Finding[] {
  return refused.flatMap(({ resource, errors }) =>
    errors.map((error) =>
      isCostError(error)
        ? {
            id: 'crd-rule-cost',
            severity: 'error' as const,
            configuration: resource,
            webhook: error.field,
            message: `kube-apiserver refuses this CustomResourceDefinition: ${error.field}: ${error.body}`,
            fix: 'add maxItems, maxProperties and maxLength where the arrays, maps and strings the rule reads are declared (kube estimates each from them), or simplify the rule',
          }
        : {
            id: 'crd-rule-invalid',
            severity: 'error' as const,
            configuration: resource,
            webhook: error.field,
            message: `kube-apiserver refuses this CustomResourceDefinition: ${error.field}: ${error.body}`,
            fix: 'fix the x-kubernetes-validations rule',
          },
    ),
  );
}
