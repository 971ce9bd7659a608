import { badge, type Verdict } from './badge';
import { html, type Html } from './html';

/** An in-page link: `anchor` is an element id of the same document, never a URL. */
export interface InPageLink {
  anchor: string;
  text: string;
}

export interface SummaryHeader {
  title: string;
  verdict: 'passed' | 'failed';
  /** `12 checks passed`, `1 failed`: each count with the badge colour it should wear, if any. */
  counts: { value: number; label: string; verdict?: Verdict }[];
  seed: number;
  /** The command line that repeats the run, e.g. `admission-harness check --seed 7`. */
  reproduce: string;
  /** Every failure, linked to its section. */
  failures: InPageLink[];
  /** Lines under the counts: an aborted run, totals. */
  notes?: Html[];
  /** The report's sections, for the table of contents. */
  sections: InPageLink[];
  generatedAt?: string;
}

/** `#scenario-3`: an in-page reference to an element id. */
function anchorHref(anchor: string): string {
  return `#${anchor}`;
}

/**
 * The top of a report: title, overall verdict, counts, the seed and how to repeat the run with it,
 * every failure linked to its section, the (script-only) expand / collapse / failures-only buttons,
 * and a table of contents. The seed is always shown: a failure is only useful if it can be reproduced.
 */
export function summaryHeader(header: SummaryHeader): Html {
  const counts = header.counts.map(
    (count) =>
      html`<span class="count">${count.verdict && count.value > 0 ? badge(count.verdict, String(count.value)) : html`<strong>${count.value}</strong>`} ${count.label}</span>`,
  );
  const failures =
    header.failures.length > 0
      ? html`<h2 class="failures-title">Failures (${header.failures.length})</h2><p>Reproduce with seed <strong class="seed">${header.seed}</strong>: <code>${header.reproduce}</code> (in a test: <code>ADMISSION_HARNESS_SEED=${header.seed}</code>).</p><ul class="failures">${header.failures.map((f) => html`<li><a href="${anchorHref(f.anchor)}">${f.text}</a></li>`)}</ul>`
      : '';
  const nav =
    header.sections.length > 0
      ? html`<nav class="toc" aria-label="Contents"><ul>${header.sections.map((s) => html`<li><a href="${anchorHref(s.anchor)}">${s.text}</a></li>`)}</ul></nav>`
      : '';
  return html`<header class="summary" id="summary"><h1>${header.title}</h1><p>${badge(header.verdict, header.verdict)} <span class="seed">seed ${header.seed}</span> <span class="muted">· repeat the run with <code>${header.reproduce}</code></span></p><div class="counts">${counts}</div>${header.notes ?? []}${failures}${
    header.generatedAt !== undefined ? html`<p class="muted">Generated at ${header.generatedAt}.</p>` : ''
  }<div class="controls" id="controls" hidden><button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button><button type="button" data-action="failures" aria-pressed="false">Failures only</button></div></header>${nav}`;
}
