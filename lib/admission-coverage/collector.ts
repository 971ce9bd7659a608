import type { WebhookEntry } from '../config/load';
import { defaultCatalog, type ResourceCatalog } from '../kube/catalog';
import type { CoverageCell } from './cell';
import { webhookId, type CoverageEvent, type CoverageRequest } from './event';
import { eventsFromTrace, type CoverageTraceStep } from './from-trace';
import type { KindCoverage } from './kind-coverage';
import { summarize, webhookLabel, type CoverageSummary } from './summary';
import { formatTable } from './table';
import { meetsThreshold, type ThresholdOptions } from './threshold';
import { WebhookCoverage } from './webhook-coverage';

export interface CoverageOptions {
  /**
   * The resources wildcards expand against and matchPolicy Equivalent consults: the harness's
   * `h.catalog` (its manifests' CRDs included). The process-wide default catalog when omitted.
   */
  catalog?: ResourceCatalog;
  /**
   * The other kinds of webhook the harness calls (its ImagePolicyWebhook backend, its CRDs' conversion
   * webhooks), listed after the admission webhooks.
   */
  kinds?: readonly KindCoverage[];
}

/**
 * Admission coverage: which cells of each webhook's registration the recorded requests exercised
 * (see CoverageCell for the model). Feed it one event per webhook decision — `recordTrace` for an
 * `h.admit` result, `record(directCallEvent(…))` for an `h.call` — then read `summary()`,
 * `toTable()` or `toJSON()`.
 */
export class CoverageCollector {
  readonly #webhooks = new Map<string, WebhookCoverage>();
  readonly #entries: readonly WebhookEntry[];
  readonly #kinds: readonly KindCoverage[];

  constructor(webhooks: readonly WebhookEntry[], options: CoverageOptions = {}) {
    const catalog = options.catalog ?? defaultCatalog;
    for (const entry of webhooks) {
      const id = webhookId(entry);
      if (!this.#webhooks.has(id)) this.#webhooks.set(id, new WebhookCoverage(entry, catalog));
    }
    this.#entries = [...webhooks];
    this.#kinds = [...(options.kinds ?? [])];
  }

  /** Records one decision; false when the event's webhook is not one of the collector's (an inline `h.call` webhook). */
  record(event: CoverageEvent): boolean {
    const coverage = this.#webhooks.get(webhookId(event.webhook));
    if (!coverage) return false;
    coverage.record(event.request, event.decision);
    return true;
  }

  /** Records every webhook decision of an `h.admit` trace (`result.trace.steps`) for the review's attributes; returns how many. */
  recordTrace(trace: { readonly steps: readonly CoverageTraceStep[] } | readonly CoverageTraceStep[], request: CoverageRequest): number {
    const steps = 'steps' in trace ? trace.steps : trace;
    return eventsFromTrace(steps, request, this.#entries).filter((event) => this.record(event)).length;
  }

  /**
   * The cells of one webhook (`configuration/name`, or `type/configuration/name` when two types share them;
   * `conversion <crd>` or `ImagePolicyWebhook <server>` for the other kinds), for inspection.
   */
  cells(webhook: string): CoverageCell[] {
    const found = [...this.#webhooks.entries()].filter(([id, c]) => id === webhook || `${c.entry.configuration}/${c.entry.spec.name}` === webhook);
    // The other kinds by their label (`conversion backups.example.com`) or their configuration alone.
    const kinds = this.#kinds.filter((kind) => webhookLabel(kind) === webhook || kind.configuration === webhook);
    return [...found.flatMap(([, c]) => c.cells()), ...kinds.flatMap((kind) => kind.cells())];
  }

  /** Per webhook, in the order given: cells covered / total, the percentage, the uncovered cells. */
  summary(): CoverageSummary {
    return summarize([...[...this.#webhooks.values()].map((c) => c.summary()), ...this.#kinds.map((kind) => kind.summary())]);
  }

  toTable(): string {
    return formatTable(this.summary());
  }

  /** The summary, so `JSON.stringify(collector)` writes it (and `mergeSummaries` reads it back). */
  toJSON(): CoverageSummary {
    return this.summary();
  }

  meetsThreshold(percent: number, options: ThresholdOptions = {}): boolean {
    return meetsThreshold(this.summary(), percent, options);
  }
}
