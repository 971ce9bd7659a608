import type { Operation } from '../kube/admission';

/**
 * One cell of a webhook's registration: a way a request can meet it that a test suite may or may not
 * have exercised. Cells are plain data (they survive JSON and a merge across Jest workers) and each
 * carries a `key` that depends only on the registration and the catalog, never on the order requests
 * were recorded in, so two runs of the same suite name the same cells the same way.
 *
 * The dimensions are counted side by side, not multiplied: kube-apiserver decides namespaceSelector,
 * objectSelector, rules and matchConditions one after the other and stops at the first "no", so most
 * combinations of a cross product (a namespaceSelector that did not match × a matchCondition that
 * was true) can never happen, and a coverage that 100 % cannot reach would be useless.
 */
export type CoverageCell = ResourceCell | AnyOtherResourceCell | SelectorCell | ConditionCell | DryRunCell | ImageReviewCell | ConversionCell;

/**
 * The order dimensions are listed in: kube-apiserver's own order of predicates, dryRun last; then the
 * cells of the other kinds of webhook (an ImagePolicyWebhook backend's, a CRD's conversion webhook's).
 */
export const DIMENSIONS = ['rule', 'rule-wildcard', 'namespaceSelector', 'objectSelector', 'matchCondition', 'dryRun', 'imageReview', 'conversion'] as const;
export type CellDimension = (typeof DIMENSIONS)[number];

/** How a request's scope reads in a cell; `*` when neither the catalog nor the rule says. */
export type CellScope = 'Namespaced' | 'Cluster' | '*';

/**
 * operation × resource/subresource × scope, as one or more rules register it. Versions are no part
 * of a cell: with matchPolicy Equivalent (the v1 default) a request to any served version reaches
 * the webhook, so "autoscaling horizontalpodautoscalers" is covered by a v1 or a v2 request alike.
 */
export interface ResourceCell {
  dimension: 'rule';
  key: string;
  /** `*` only for a resource the catalog does not know, registered with operations `*`. */
  operation: Operation | '*';
  /** '' is the core group; `*` for a resource the catalog does not know, registered in every group. */
  group: string;
  resource: string;
  /** '' is the resource itself; `*` only for a resource the catalog does not know (`widgets/*`). */
  subResource: string;
  scope: CellScope;
  /** Indexes of the rules that register it (overlapping rules share a cell: it is one kind of request). */
  rules: number[];
  /** Added when a request showed it (through a wildcard, or a resource the catalog lacks), not enumerated from the manifest. */
  seen?: true;
}

/**
 * A rule's resource wildcard (`*`, `*\/*`, `*\/status`) is one cell, not the whole catalog: it is
 * covered once a request matched the rule through the wildcard, and every resource such a request
 * showed adds its own ResourceCells (flagged `seen`).
 */
export interface AnyOtherResourceCell {
  dimension: 'rule-wildcard';
  key: string;
  rule: number;
  /** The rule's wildcard entries, as written. */
  entries: string[];
}

/** namespaceSelector or objectSelector, only for a webhook whose selector is not `{}`. */
export interface SelectorCell {
  dimension: 'namespaceSelector' | 'objectSelector';
  key: string;
  matched: boolean;
}

export type ConditionResult = 'true' | 'false' | 'error';

export interface ConditionCell {
  dimension: 'matchCondition';
  key: string;
  /** The condition's name, unique within the webhook (the API validates it). */
  condition: string;
  /** Its position in matchConditions, which orders the cells. */
  index: number;
  result: ConditionResult;
}

export interface DryRunCell {
  dimension: 'dryRun';
  key: string;
  dryRun: boolean;
}

/** What an ImagePolicyWebhook backend answered: allowed, denied, or no answer the plugin could use (an error, a 5xx after its retries, unreachable). */
export type ImageReviewAnswer = 'allowed' | 'denied' | 'error';

/**
 * The kind of request an ImagePolicyWebhook backend was sent an ImageReview for (`CREATE pods`,
 * `UPDATE pods`, `UPDATE pods/ephemeralcontainers`: the plugin reviews nothing else) × what it answered.
 * Only reviews the backend was asked: an answer from the plugin's cache exercised nothing of it.
 */
export interface ImageReviewCell {
  dimension: 'imageReview';
  key: string;
  request: string;
  answer: ImageReviewAnswer;
  /** Added when a review showed it (a request kube-apiserver never sends the plugin), not enumerated. */
  seen?: true;
}

/**
 * One ordered pair of a CRD's versions its conversion webhook may be asked to convert between (from the
 * versions served and the storage version), covered once a ConversionReview for it was sent.
 */
export interface ConversionCell {
  dimension: 'conversion';
  key: string;
  from: string;
  to: string;
  /** Positions of the versions in the CRD's spec.versions, which order the cells. */
  fromIndex: number;
  toIndex: number;
  /** Added when a review showed it (a version neither served nor stored), not enumerated. */
  seen?: true;
}

/** `pods`, `deployments.apps/scale`: GroupResource.String() with the subresource after a slash. */
export function resourceName(group: string, resource: string, subResource: string): string {
  return `${resource}${group ? `.${group}` : ''}${subResource ? `/${subResource}` : ''}`;
}

export function resourceCell(fields: Omit<ResourceCell, 'dimension' | 'key'>): ResourceCell {
  const { operation, group, resource, subResource, scope } = fields;
  return { dimension: 'rule', key: `${operation} ${resourceName(group, resource, subResource)} [${scope}]`, ...fields };
}

export function anyOtherResourceCell(rule: number, entries: string[]): AnyOtherResourceCell {
  return { dimension: 'rule-wildcard', key: `rules[${rule}] ${entries.join(',')}: any other resource`, rule, entries };
}

export function selectorCell(dimension: SelectorCell['dimension'], matched: boolean): SelectorCell {
  return { dimension, key: `${dimension}: ${matched ? 'matched' : 'not matched'}`, matched };
}

export function conditionCell(condition: string, index: number, result: ConditionResult): ConditionCell {
  return { dimension: 'matchCondition', key: `matchCondition ${condition}: ${result}`, condition, index, result };
}

export function dryRunCell(dryRun: boolean): DryRunCell {
  return { dimension: 'dryRun', key: `dryRun: ${dryRun}`, dryRun };
}

export function imageReviewCell(request: string, answer: ImageReviewAnswer): ImageReviewCell {
  return { dimension: 'imageReview', key: `${request}: ${answer}`, request, answer };
}

export function conversionCell(from: string, to: string, versions: readonly string[]): ConversionCell {
  return { dimension: 'conversion', key: `${from} to ${to}`, from, to, fromIndex: versions.indexOf(from), toIndex: versions.indexOf(to) };
}

/** A copy that shares nothing with `cell` (its rules list included): cells handed out cannot change the collector's. */
export function copyCell<C extends CoverageCell>(cell: C): C {
  return cell.dimension === 'rule'
    ? { ...cell, rules: [...cell.rules] }
    : cell.dimension === 'rule-wildcard'
      ? { ...cell, entries: [...cell.entries] }
      : { ...cell };
}

const OPERATION_ORDER = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT', '*'];
const RESULT_ORDER: readonly ConditionResult[] = ['true', 'false', 'error'];
/** The requests the plugin reviews, in the order a pod's life meets them. */
export const IMAGE_REVIEW_REQUESTS = ['CREATE pods', 'UPDATE pods', 'UPDATE pods/ephemeralcontainers'] as const;
export const IMAGE_REVIEW_ANSWERS: readonly ImageReviewAnswer[] = ['allowed', 'denied', 'error'];
const ordinal = (list: readonly string[], value: string): number => (list.includes(value) ? list.indexOf(value) : list.length);
const SCOPE_ORDER: readonly CellScope[] = ['Namespaced', 'Cluster', '*'];

/** Sort keys of a cell, compared element by element: the same order whatever order requests came in. */
function sortKey(cell: CoverageCell): (string | number)[] {
  const dimension = DIMENSIONS.indexOf(cell.dimension);
  switch (cell.dimension) {
    case 'rule':
      return [dimension, cell.group, cell.resource, cell.subResource, OPERATION_ORDER.indexOf(cell.operation), SCOPE_ORDER.indexOf(cell.scope)];
    case 'rule-wildcard':
      return [dimension, cell.rule];
    case 'namespaceSelector':
    case 'objectSelector':
      return [dimension, cell.matched ? 0 : 1];
    case 'matchCondition':
      return [dimension, cell.index, RESULT_ORDER.indexOf(cell.result)];
    case 'dryRun':
      return [dimension, cell.dryRun ? 1 : 0];
    case 'imageReview':
      return [dimension, ordinal(IMAGE_REVIEW_REQUESTS, cell.request), cell.request, ordinal(IMAGE_REVIEW_ANSWERS, cell.answer)];
    case 'conversion':
      return [dimension, cell.fromIndex, cell.toIndex];
  }
  // A dimension of a newer summary file than this code: listed last, by key.
  return [DIMENSIONS.length];
}

/** The order cells are listed in: kube-apiserver's order of predicates, then the cells' own fields. */
export function compareCells(a: CoverageCell, b: CoverageCell): number {
  const x = sortKey(a);
  const y = sortKey(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    return String(p) < String(q) ? -1 : 1;
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
