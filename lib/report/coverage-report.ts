import type { CoverageSummary } from '../admission-coverage/summary';
import { badge } from './badge';
import { coverageGrid } from './coverage-grid';
import { generatedText, htmlDocument, type DocumentOptions } from './document';
import { html } from './html';

export interface CoverageHtmlOptions extends DocumentOptions {
  /** The percentage the run must reach (a reporter's threshold): the header says whether it did. */
  threshold?: number;
}

/**
 * Admission coverage alone (a test run's reporter, after merging its workers' summaries) as one
 * self-contained HTML page: the total and, per webhook, every cell of its registration marked covered
 * or not. There is no seed to show: coverage sums many runs.
 */
export function htmlFromCoverage(summary: CoverageSummary, options: CoverageHtmlOptions = {}): string {
  const title = options.title ?? 'admission-harness coverage';
  const { threshold } = options;
  const met = threshold === undefined || summary.percent >= threshold;
  const uncovered = summary.webhooks.reduce((n, w) => n + w.uncovered.length, 0);
  const generated = generatedText(options.generatedAt);
  const verdict =
    threshold === undefined
      ? html`<span class="muted">${uncovered} cell${uncovered === 1 ? '' : 's'} not covered</span>`
      : html`${badge(met ? 'passed' : 'failed', met ? 'met' : 'below')} <span class="muted">threshold ${threshold} %, ${uncovered} cell${uncovered === 1 ? '' : 's'} not covered</span>`;
  const header = html`<header class="summary" id="summary"><h1>${title}</h1><p>${verdict}</p><div class="counts"><span class="count"><strong>${summary.percent.toFixed(2)} %</strong> covered</span><span class="count"><strong>${summary.covered}</strong> of ${summary.total} cells</span><span class="count"><strong>${summary.webhooks.length}</strong> webhook${summary.webhooks.length === 1 ? '' : 's'}</span></div>${
    generated !== undefined ? html`<p class="muted">Generated at ${generated}.</p>` : ''
  }</header>`;
  return htmlDocument(title, html`${header}${coverageGrid(summary)}`);
}
