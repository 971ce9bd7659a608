import { webhookLabel, type CellStatus, type CoverageSummary, type WebhookSummary } from '../admission-coverage/summary';
import { html, type Html } from './html';
import { cssPercent } from './units';

function percentText(percent: number): string {
  return `${percent.toFixed(2)} %`;
}

/** A covered fraction as a small horizontal bar (a CSS width): readable with styles off, as its text sits beside it. */
function meter(percent: number): Html {
  return html`<span class="meter" aria-hidden="true"><span style="width: ${cssPercent(percent / 100)}"></span></span>`;
}

function cellRow(cell: CellStatus): Html {
  const state = cell.covered ? 'covered' : 'uncovered';
  return html`<tr class="${state}"><td class="dimension">${cell.dimension}</td><td class="cell"><code>${cell.key}</code>${'seen' in cell && cell.seen ? html` <span class="muted">(${cell.dimension === 'rule' ? 'seen through a wildcard' : 'seen in a request'})</span>` : ''}</td><td class="state">${cell.covered ? '✓ covered' : '✗ not covered'}</td></tr>`;
}

/** One webhook's registration: its percentage, then every cell as a row marked covered or not. */
function webhookGrid(webhook: WebhookSummary, index: number): Html {
  const outside =
    webhook.outside.length > 0
      ? html`<p>Sent outside its rules (not counted):</p><ul>${webhook.outside.map((request) => html`<li><code>${request}</code></li>`)}</ul>`
      : '';
  const unreached = webhook.unreached ?? [];
  const refused =
    unreached.length > 0
      ? html`<p>Matched by its rules but refused before its turn (not counted):</p><ul>${unreached.map((request) => html`<li><code>${request}</code></li>`)}</ul>`
      : '';
  return html`<div class="coverage-webhook" id="coverage-${index}"><h3>${webhookLabel(webhook)}</h3><p><strong>${percentText(webhook.percent)}</strong> ${meter(webhook.percent)} <span class="muted">${webhook.covered} of ${webhook.total} cells covered</span></p>${
    webhook.cells.length > 0
      ? html`<table class="coverage"><thead><tr><th>dimension</th><th>cell</th><th>covered</th></tr></thead><tbody>${webhook.cells.map(cellRow)}</tbody></table>`
      : html`<p class="muted">Its registration has no cell to cover.</p>`
  }${outside}${refused}</div>`;
}

/**
 * The coverage grid (lib/admission-coverage): the total, then per webhook its cells as a table with covered and
 * uncovered rows and the percentage, in the summary's order (kube-apiserver's order of predicates).
 */
export function coverageGrid(summary: CoverageSummary): Html {
  return html`<section class="coverage-grid" id="coverage"><h2>Admission coverage</h2><p><strong>${percentText(summary.percent)}</strong> ${meter(summary.percent)} <span class="muted">${summary.covered} of ${summary.total} cells covered over ${summary.webhooks.length} webhook${summary.webhooks.length === 1 ? '' : 's'}</span></p>${
    summary.webhooks.length > 0 ? summary.webhooks.map(webhookGrid) : html`<p class="muted">No webhook is registered.</p>`
  }</section>`;
}
