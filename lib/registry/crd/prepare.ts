/**
 * The one asynchronous step: loading CEL and compiling a schema's x-kubernetes-validations, so that
 * validateCustomResource stays synchronous. kube-apiserver compiles the rules when the CRD is
 * created and rejects a CRD whose rules do not compile; the same problems are returned here as the
 * CRD's field errors (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go):
 * `<schema path>.x-kubernetes-validations[0].rule: Invalid value: {"rule":"…"}: compilation failed: …`,
 * and the static cost estimates past their limits (cel/rule-cost.ts): `…rule: Forbidden: estimated rule
 * cost exceeds budget by factor of …`, then the schema's total.
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { loadCel } from '../../cel/runtime';
import { invalid, json } from '../../kube/field-errors';
import { Path } from '../../kube/field-path';
import { compiledRules } from './cel/rules';
import { normalizeFieldPath } from './cel/rule-field-path';
import { nodesWithCardinality, ruleCostErrors, TotalCost } from './cel/rule-cost';
import type { StructuralSchema, ValidationRule } from './schema-node';

/** A ValidationRule as json.Marshal writes the v1 struct (members in field order, empty ones omitted). */
function ruleValue(rule: ValidationRule): Json {
  const out: JsonObject = { rule: rule.rule };
  if (rule.message) out.message = rule.message;
  if (rule.messageExpression) out.messageExpression = rule.messageExpression;
  if (rule.reason) out.reason = rule.reason;
  if (rule.fieldPath) out.fieldPath = rule.fieldPath;
  if (rule.optionalOldSelf !== undefined) out.optionalOldSelf = rule.optionalOldSelf;
  return out;
}

/**
 * Loads CEL (once per process) and compiles every rule of the schema (once per schema). Returns the
 * errors kube-apiserver would reject the CRD with, under `schemaPath` (e.g.
 * `spec.versions[0].schema.openAPIV3Schema`); an empty list means every rule compiled.
 */
export async function prepareCustomResourceValidation(schema: StructuralSchema, schemaPath = 'openAPIV3Schema'): Promise<FieldError[]> {
  if (!schema.hasRules) return [];
  await loadCel();
  const errors: FieldError[] = [];
  const total = new TotalCost();
  for (const [node, cardinality] of nodesWithCardinality(schema.root, 1)) {
    const base = Path.of(node.location ? `${schemaPath}.${node.location}` : schemaPath).child('x-kubernetes-validations');
    compiledRules(node).forEach((compiled, i) => {
      const at = base.index(i);
      errors.push(...ruleCostErrors(compiled, node, node === schema.root, cardinality, at, total));
      if (compiled.error !== undefined) errors.push(invalid(at.child('rule'), json(ruleValue(compiled.rule)), compiled.error));
      if (compiled.messageError !== undefined) errors.push(invalid(at.child('messageExpression'), json(ruleValue(compiled.rule)), compiled.messageError));
      if (compiled.rule.fieldPath) {
        const normalized = normalizeFieldPath(compiled.rule.fieldPath, node);
        if (typeof normalized !== 'string')
          errors.push(invalid(at.child('fieldPath'), compiled.rule.fieldPath, `fieldPath must be a valid path: ${normalized.error}`));
      }
    });
  }
  errors.push(...total.errors(Path.of(schemaPath)));
  return errors;
}
