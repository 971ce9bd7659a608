/**
 * The cost limits kube-apiserver checks a CRD's x-kubernetes-validations against when the CRD is
 * created (apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go and
 * cel_validation.go): each rule's estimated cost (cel-go's static estimate, ../../../cel/cost/estimate.ts)
 * times the number of times the rule can run in one object (the product of the maxItems and
 * maxProperties above it, or, where one is missing, as many as fit in a request) must stay within
 * `StaticEstimatedCostLimit`, and all of them together within `StaticEstimatedCRDCostLimit`.
 */
import { estimateCost, type SizedType } from '../../../cel/cost/estimate';
import { maxCardinality, resourceRootType, sizedType } from './rule-types';
import { MAX_UINT64 } from '../../../cel/cost/estimate-range';
import { forbidden } from '../../../kube/field-errors';
import type { Path } from '../../../kube/field-path';
import type { FieldError } from '../../../kube/status';
import type { SchemaNode } from '../schema-node';
import type { CompiledRule } from './rules';

/** validation.go `StaticEstimatedCostLimit`: one rule's (or messageExpression's) estimate. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
/** validation.go `StaticEstimatedCRDCostLimit`: all of a schema's rules together. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
/** `TotalCost.MostExpensive` keeps the 4 costliest rules of at least 1 % of the CRD limit. */
const MOST_EXPENSIVE = 4;

/** Go's `%f`: six decimals. */
const goFloat = (value: number): string => value.toFixed(6);

/** validation.go `getCostErrorMessage`. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${goFloat(factor)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** cel_validation.go `extractMaxElements`: how many children one value of this node has at most (undefined: unbounded). */
function maxElements(node: SchemaNode): number | undefined {
  if (node.type === 'object') return typeof node.additionalProperties === 'object' ? node.maxProperties : 1;
  if (node.type === 'array') return node.maxItems;
  return 1;
}

const multiplySaturated = (cost: number, cardinality: number): number => (cost === 0 ? 0 : cost > MAX_UINT64 / cardinality ? MAX_UINT64 : cost * cardinality);

/**
 * The schema nodes with the number of times each can occur in one object (undefined: unbounded); the
 * root occurs once. Children come before their parent, as validation.go's
 * `ValidateCustomResourceDefinitionOpenAPISchema` checks a node's rules after recursing into it (kube
 * visits sibling properties in Go map order; here in the schema's).
 */
export function* nodesWithCardinality(node: SchemaNode, cardinality: number | undefined): Generator<[SchemaNode, number | undefined]> {
  const factor = maxElements(node);
  const child = cardinality === undefined || factor === undefined ? undefined : cardinality * Math.max(0, factor);
  for (const property of node.properties.values()) yield* nodesWithCardinality(property, child);
  if (typeof node.additionalProperties === 'object') yield* nodesWithCardinality(node.additionalProperties, child);
  if (node.items) yield* nodesWithCardinality(node.items, child);
  for (const branch of node.allOf) yield* nodesWithCardinality(branch, cardinality);
  yield [node, cardinality];
}

/** What a rule at this node can cost in one object: its estimate's maximum times how often it can run. */
function expressionCost(maxCost: number, cardinality: number | undefined, type: SizedType): number {
  return multiplySaturated(maxCost, cardinality ?? maxCardinality(type.minSerializedSize));
}

/** Accumulates the CRD's total as validation.go's `TotalCost` does. */
export class TotalCost {
  total = 0;
  readonly mostExpensive: { path: Path; cost: number }[] = [];

  observe(path: Path, cost: number): void {
    this.total = Math.min(MAX_UINT64, this.total + cost);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => b.cost - a.cost);
    this.mostExpensive.splice(MOST_EXPENSIVE);
  }

  /** The errors once every rule was observed: one per costliest rule, then the schema's own. */
  errors(schemaPath: Path): FieldError[] {
    if (this.total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return [];
    return [
      ...this.mostExpensive.map(({ path }) => forbidden(path, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema')),
      forbidden(
        schemaPath,
        costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', this.total, STATIC_ESTIMATED_CRD_COST_LIMIT),
      ),
    ];
  }
}

/**
 * The cost errors of one compiled rule at `at` (its `x-kubernetes-validations[i]` path), observed into
 * `total`: the rule's, then its messageExpression's (which is not multiplied by the cardinality).
 */
export function ruleCostErrors(
  compiled: CompiledRule,
  node: SchemaNode,
  isRoot: boolean,
  cardinality: number | undefined,
  at: Path,
  total: TotalCost,
): FieldError[] {
  const errors: FieldError[] = [];
  const type = isRoot ? resourceRootType(node) : sizedType(node);
  const variables = new Map([
    ['self', type],
    ['oldSelf', type],
  ]);
  if (compiled.program) {
    const cost = expressionCost(estimateCost(compiled.program.ast, variables).max, cardinality, type);
    if (cost > STATIC_ESTIMATED_COST_LIMIT)
      errors.push(forbidden(at.child('rule'), costErrorMessage('estimated rule cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    total.observe(at.child('rule'), cost);
  }
  if (compiled.message) {
    const cost = estimateCost(compiled.message.ast, variables).max;
    if (cost > STATIC_ESTIMATED_COST_LIMIT)
      errors.push(forbidden(at.child('messageExpression'), costErrorMessage('estimated messageExpression cost', cost, STATIC_ESTIMATED_COST_LIMIT)));
    total.observe(at.child('messageExpression'), cost);
  }
  return errors;
}
