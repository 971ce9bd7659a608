import type { ResourceCatalog } from '../kube/catalog';
import type { MutatingWebhook, RuleWithOperations } from '../kube/webhook-config';
import { anyOtherResourceCell, compareCells, conditionCell, dryRunCell, selectorCell, type CoverageCell, type ResourceCell } from './cell';
import { ruleTargets, targetCells, wildcardEntries } from './rule-targets';
import { namespaceSides, objectSides, selectsSomething } from './selector-sides';

/** Puts `cell` into `cells`, a cell two rules both give keeping one entry that lists both rules. */
export function addCell(cells: Map<string, CoverageCell>, cell: CoverageCell): CoverageCell {
  const known = cells.get(cell.key);
  if (!known) {
    cells.set(cell.key, cell);
    return cell;
  }
  if (known.dimension === 'rule' && cell.dimension === 'rule') {
    for (const rule of cell.rules) if (!known.rules.includes(rule)) known.rules.push(rule);
    known.rules.sort((a, b) => a - b);
  }
  return known;
}

/**
 * Every cell of one webhook's registration that the manifest and the catalog determine, in listing
 * order (cells for resources seen through wildcards are added as requests show them):
 *
 * - `rule`: for each rule, operation × resource/subresource × scope, wildcards in operations,
 *   groups and subresources expanded against the catalog (only what kube-apiserver can produce:
 *   the operations each resource admits, the rule's scope, no exempt kinds);
 * - `rule-wildcard`: one "any other resource" cell per rule with a resource wildcard;
 * - `namespaceSelector` / `objectSelector`: matched and not matched, for a selector other than `{}`
 *   (the namespaceSelector only if some cell can be namespaced or a namespace itself, the only
 *   requests it applies to), each side only if some namespace or object can be on it; with an
 *   objectSelector, no CONNECT cell (it never matches a CONNECT);
 * - `matchCondition`: true, false and error for each condition;
 * - `dryRun`: false, and true unless every request it registers is a CONNECT (never a dry run).
 *
 * A registration whose rules can match nothing has no cell at all: nothing of it can be exercised.
 */
export function registrationCells(spec: MutatingWebhook, catalog: ResourceCatalog): CoverageCell[] {
  const cells = new Map<string, CoverageCell>();
  const rules = spec.rules ?? [];
  rules.forEach((rule, index) => {
    for (const target of ruleTargets(rule, catalog)) for (const cell of targetCells(rule, index, target)) addCell(cells, cell);
    const wildcards = wildcardEntries(rule);
    if (wildcards.length > 0) addCell(cells, anyOtherResourceCell(index, wildcards));
  });
  if (cells.size === 0) return [];

  if (selectsSomething(spec.objectSelector)) dropConnect(cells, rules);
  if (cells.size === 0) return [];

  const resourceCells = [...cells.values()].filter((cell): cell is ResourceCell => cell.dimension === 'rule');
  const wildcard = cells.size > resourceCells.length;
  // Cluster-scoped requests skip the namespaceSelector, except those for a namespace itself.
  const namespaced =
    wildcard || resourceCells.some((cell) => cell.scope !== 'Cluster' || (cell.resource === 'namespaces' && (cell.group === '' || cell.group === '*')));
  // A side no namespace or object can be on (every namespace carries kubernetes.io/metadata.name;
  // requirements that contradict each other) is no cell.
  if (namespaced && selectsSomething(spec.namespaceSelector)) {
    const sides = namespaceSides(spec, { matched: 'admission-harness-in', notMatched: 'admission-harness-out' });
    if ('made' in sides.matched) addCell(cells, selectorCell('namespaceSelector', true));
    if ('made' in sides.notMatched) addCell(cells, selectorCell('namespaceSelector', false));
  }
  if (selectsSomething(spec.objectSelector)) {
    const sides = objectSides(spec);
    if ('made' in sides.matched) addCell(cells, selectorCell('objectSelector', true));
    if ('made' in sides.notMatched) addCell(cells, selectorCell('objectSelector', false));
  }
  (spec.matchConditions ?? []).forEach((condition, index) => {
    for (const result of ['true', 'false', 'error'] as const) addCell(cells, conditionCell(condition.name, index, result));
  });
  addCell(cells, dryRunCell(false));
  if (canBeDryRun([...cells.values()], rules)) addCell(cells, dryRunCell(true));
  return [...cells.values()].sort(compareCells);
}

const onlyConnect = (operations: readonly string[] | undefined): boolean => (operations ?? []).length > 0 && (operations ?? []).every((op) => op === 'CONNECT');

/**
 * A CONNECT request's object is its options (PodExecOptions, NodeProxyOptions…), which have no
 * metadata, and it has no old object: an objectSelector other than `{}` never matches it (apiserver
 * pkg/admission/plugin/webhook/predicates/object, `matchObject` fails on the object's accessor), so
 * kube-apiserver never sends such a webhook a CONNECT. Its CONNECT cells, and a wildcard rule that
 * registers only CONNECT, are no cells.
 */
function dropConnect(cells: Map<string, CoverageCell>, rules: readonly RuleWithOperations[]): void {
  for (const [key, cell] of cells) {
    if ((cell.dimension === 'rule' && cell.operation === 'CONNECT') || (cell.dimension === 'rule-wildcard' && onlyConnect(rules[cell.rule]?.operations)))
      cells.delete(key);
  }
}

/**
 * Whether some request of the registration can be a dry run. A CONNECT never is: the apiserver's
 * connect handler (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go, `ConnectResource`)
 * builds its admission attributes with dryRun false. So a registration that registers only CONNECT
 * has no `dryRun: true` cell.
 */
function canBeDryRun(cells: readonly CoverageCell[], rules: readonly RuleWithOperations[]): boolean {
  return cells.some(
    (cell) => (cell.dimension === 'rule' && cell.operation !== 'CONNECT') || (cell.dimension === 'rule-wildcard' && !onlyConnect(rules[cell.rule]?.operations)),
  );
}
