/**
 * The CEL cost limits kube-apiserver runs expressions under: k8s.io/apiserver pkg/apis/cel/config.go.
 * A cost unit is cel-go's (interpreter/runtimecost.go): roughly one per variable read, field
 * selection and function call, more for functions that traverse strings and lists.
 */

/** `PerCallLimit`: one expression's evaluation is cancelled past this cost. */
export const PER_CALL_LIMIT = 1_000_000;

/** `RuntimeCELCostBudget`: what one policy binding's validations (or one custom resource's rules) may cost together. */
export const RUNTIME_COST_BUDGET = 10_000_000;

/** `RuntimeCELCostBudgetMatchConditions`: what one webhook's or one policy binding's matchConditions may cost together. */
export const MATCH_CONDITIONS_COST_BUDGET = 2_500_000;

/** cel-go's text for an evaluation stopped at the per-call limit (interpreter/runtimecost.go). */
export const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

/** The filter's text when expressions together spend more than their budget (apiserver plugin/cel filter.go `ForInput`). */
export const OUT_OF_COST_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
