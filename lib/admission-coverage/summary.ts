import type { WebhookType } from '../kube/webhook-config';
import type { CoverageCell } from './cell';

/**
 * What a summary entry is: an admission webhook of the manifests (`mutating`, `validating`), an
 * ImagePolicyWebhook backend, or a CRD's conversion webhook (`conversion`, its configuration the CRD).
 */
export type CoverageKind = WebhookType | 'ImagePolicyWebhook' | 'conversion';

/** A cell and whether some recorded request covered it. */
export type CellStatus = CoverageCell & { covered: boolean };

/**
 * One webhook's coverage. Plain data, the same as `toJSON()` gives, so a reporter can write it from
 * each Jest worker, merge the files (`mergeSummaries`) and print or check the result.
 */
export interface WebhookSummary {
  type: CoverageKind;
  configuration: string;
  name: string;
  covered: number;
  total: number;
  /** covered / total × 100, rounded to two decimals; 100 for a registration with no cell. */
  percent: number;
  /** Keys of the cells no request covered, in listing order. */
  uncovered: string[];
  /** Requests the webhook was sent (by `h.call`) that its rules do not match; not counted. */
  outside: string[];
  /**
   * Requests its rules match that something refused before its turn, with what refused them first
   * (`CREATE pods [Namespaced]: refused first by ServiceAccount (built-in plugin)`), for request
   * shapes no other request covered; not counted. Absent in summaries written before it existed.
   */
  unreached?: string[];
  /** Every cell, in listing order. */
  cells: CellStatus[];
}

export interface CoverageSummary {
  covered: number;
  total: number;
  percent: number;
  webhooks: WebhookSummary[];
}

/**
 * The admission webhooks' part of a summary: what `check` and `replay` count, whose requests are admission
 * requests only (the conversion battery reports apart), so a CRD's conversion webhook is no gap of theirs.
 */
export function admissionWebhooksOf(summary: CoverageSummary): CoverageSummary {
  return summarize(summary.webhooks.filter((webhook) => webhook.type === 'mutating' || webhook.type === 'validating'));
}

/** Two decimals, as code coverage prints them; a registration with nothing to cover is fully covered. */
export function percentOf(covered: number, total: number): number {
  return total === 0 ? 100 : Math.round((covered / total) * 10000) / 100;
}

/** The totals over `webhooks`. */
/**
 * One webhook's summary from its cells and the keys covered: the counts, the percentage and the
 * uncovered keys are derived here, once, for every kind of coverage.
 */
export function webhookSummary(
  identity: Pick<WebhookSummary, 'type' | 'configuration' | 'name'>,
  cells: readonly CoverageCell[],
  covered: ReadonlySet<string>,
  extra: Pick<WebhookSummary, 'outside'> & Partial<Pick<WebhookSummary, 'unreached'>>,
): WebhookSummary {
  const statuses = cells.map((cell) => ({ ...cell, covered: covered.has(cell.key) }));
  const count = statuses.filter((cell) => cell.covered).length;
  return {
    ...identity,
    covered: count,
    total: statuses.length,
    percent: percentOf(count, statuses.length),
    uncovered: statuses.filter((cell) => !cell.covered).map((cell) => cell.key),
    ...extra,
    cells: statuses,
  };
}

export function summarize(webhooks: WebhookSummary[]): CoverageSummary {
  const covered = webhooks.reduce((sum, w) => sum + w.covered, 0);
  const total = webhooks.reduce((sum, w) => sum + w.total, 0);
  return { covered, total, percent: percentOf(covered, total), webhooks };
}

/**
 * `validating pod-policy/image.example.com`: how tables and messages name a webhook; `ImagePolicyWebhook
 * https://images.example.com/review` a backend by its server, `conversion backups.example.com` a CRD's webhook.
 */
export function webhookLabel(webhook: Pick<WebhookSummary, 'type' | 'configuration' | 'name'>): string {
  if (webhook.type === 'ImagePolicyWebhook' || webhook.type === 'conversion') return `${webhook.type} ${webhook.configuration}`;
  return `${webhook.type} ${webhook.configuration}/${webhook.name}`;
}

const REFUSED_FIRST_BY = ': refused first by ';

/** An `unreached` entry: the request's shape (a rule cell's key) and what refused it. */
export function unreachedEntry(shape: string, refusedBy: string): string {
  return `${shape}${REFUSED_FIRST_BY}${refusedBy}`;
}

/** The entries whose request shape no covered cell has: a shape some request reached is no gap. */
export function stillUnreached(entries: Iterable<string>, covered: ReadonlySet<string>): string[] {
  return [...entries].filter((entry) => !covered.has(entry.slice(0, entry.indexOf(REFUSED_FIRST_BY)))).sort();
}
