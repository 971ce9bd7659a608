import type { WebhookEntry } from '../config/load';
import type { ResourceCatalog } from '../kube/catalog';
import {
  anyOtherResourceCell,
  compareCells,
  copyCell,
  conditionCell,
  dryRunCell,
  resourceCell,
  resourceName,
  selectorCell,
  type CoverageCell,
  type ResourceCell,
} from './cell';
import type { CoverageDecision, CoverageRequest } from './event';
import { addCell, registrationCells } from './registration-cells';
import { matchRequest, requestScope } from './request-match';
import { requestTarget, targetCells, wildcardEntries } from './rule-targets';
import { stillUnreached, unreachedEntry, webhookSummary, type WebhookSummary } from './summary';

/** The shape of a request as a rule cell reads it. */
interface Shape {
  operation: string;
  group: string;
  resource: string;
  subResource: string;
  scope: 'Namespaced' | 'Cluster';
}

function covers(cell: ResourceCell, shape: Shape): boolean {
  return (
    (cell.operation === '*' || cell.operation === shape.operation) &&
    (cell.group === '*' || cell.group === shape.group) &&
    cell.resource === shape.resource &&
    // A `*` subresource (of a resource the catalog lacks) matches the resource itself too, as in rules.
    (cell.subResource === '*' || cell.subResource === shape.subResource) &&
    (cell.scope === '*' || cell.scope === shape.scope)
  );
}

/** One webhook's cells and which of them requests have covered so far. */
export class WebhookCoverage {
  readonly #cells = new Map<string, CoverageCell>();
  readonly #covered = new Set<string>();
  // Requests the webhook was sent that its rules do not match (an h.call beside its registration).
  readonly #outside = new Set<string>();
  // Requests its rules match that a refusal earlier in the chain kept from it.
  readonly #unreached = new Set<string>();

  constructor(
    readonly entry: WebhookEntry,
    private readonly catalog: ResourceCatalog,
  ) {
    // Copies: addCell merges rule lists into the cells it keeps.
    for (const cell of registrationCells(entry.spec, catalog)) this.#cells.set(cell.key, copyCell(cell));
  }

  /**
   * Covers what one decision exercised. Rule and dryRun cells need the webhook to have been called
   * (every predicate passed): a request the selectors or conditions turned away covers their cells,
   * not the rule's, or a suite whose every request is excluded would show its rules fully covered.
   * Selector and condition cells need the rules to match the request: a configmap turned away by a
   * pods webhook's namespaceSelector says nothing about that selector.
   */
  record(request: CoverageRequest, decision: CoverageDecision): void {
    const spec = this.entry.spec;
    const match = matchRequest(spec, request, this.catalog);
    const scope = requestScope(request);
    if (decision.outcome === 'unreached') {
      if (match)
        this.#unreached.add(
          unreachedEntry(
            `${request.operation} ${resourceName(request.resource.group, request.resource.resource, request.subResource)} [${scope}]`,
            decision.refusedBy,
          ),
        );
      return;
    }
    if (decision.outcome === 'called') {
      if (!match) {
        this.#outside.add(`${request.operation} ${resourceName(request.resource.group, request.resource.resource, request.subResource)} [${scope}]`);
        return;
      }
      const rule = spec.rules?.[match.rule];
      if (rule && match.viaWildcard) this.#cover(anyOtherResourceCell(match.rule, wildcardEntries(rule)).key);
      const shape: Shape = {
        operation: request.operation,
        group: match.resource.group,
        resource: match.resource.resource,
        subResource: request.subResource,
        scope,
      };
      let hits = this.#ruleCells().filter((cell) => covers(cell, shape));
      if (hits.length === 0 && rule) {
        // A resource the manifest did not name one by one (a wildcard, a group `*`, a CRD the catalog lacks): its cells join now.
        for (const cell of targetCells(rule, match.rule, requestTarget(match.resource, request.subResource, scope, this.catalog))) this.#addSeen(cell);
        hits = this.#ruleCells().filter((cell) => covers(cell, shape));
      }
      // Still none: the catalog says the resource never admits this operation, yet the request happened.
      if (hits.length === 0)
        hits = [
          this.#addSeen(
            resourceCell({
              operation: request.operation,
              group: shape.group,
              resource: shape.resource,
              subResource: shape.subResource,
              scope,
              rules: [match.rule],
            }),
          ),
        ];
      for (const cell of hits) this.#cover(cell.key);
      this.#cover(dryRunCell(request.dryRun).key);
    }
    if (!match || (decision.outcome === 'skipped' && decision.by === 'rules')) return;
    const predicates = decision.predicates ?? {};
    for (const dimension of ['namespaceSelector', 'objectSelector'] as const) {
      const result = predicates[dimension];
      if (result === 'matched' || result === 'not-matched') this.#cover(selectorCell(dimension, result === 'matched').key);
    }
    const conditions = spec.matchConditions ?? [];
    for (const { name, result } of predicates.matchConditions ?? []) {
      const index = conditions.findIndex((c) => c.name === name);
      if (index >= 0) this.#cover(conditionCell(name, index, result).key);
    }
  }

  /** The cells so far (the registration's, and those requests showed), in listing order. */
  cells(): CoverageCell[] {
    return [...this.#cells.values()].sort(compareCells).map(copyCell);
  }

  summary(): WebhookSummary {
    return webhookSummary({ type: this.entry.type, configuration: this.entry.configuration, name: this.entry.spec.name }, this.cells(), this.#covered, {
      outside: [...this.#outside].sort(),
      unreached: stillUnreached(this.#unreached, this.#covered),
    });
  }

  #ruleCells(): ResourceCell[] {
    return [...this.#cells.values()].filter((cell): cell is ResourceCell => cell.dimension === 'rule');
  }

  #addSeen(cell: ResourceCell): ResourceCell {
    const isNew = !this.#cells.has(cell.key);
    const kept = addCell(this.#cells, cell) as ResourceCell;
    if (isNew) kept.seen = true;
    return kept;
  }

  // Only cells of the model are covered: a key the registration does not have is ignored.
  #cover(key: string): void {
    if (this.#cells.has(key)) this.#covered.add(key);
  }
}
