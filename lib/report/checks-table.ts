import { badge, verdictOf } from './badge';
import { html, type Html } from './html';

/** One check as every report has it: the battery's (`status`) and replay's follow-ups (`pass`) alike. */
export interface CheckRow {
  id: string;
  pass: boolean;
  detail?: string;
}

/** The battery's `{ status: 'pass' | 'fail' }` checks as rows. */
export function rowsOfChecks(checks: readonly { id: string; status: 'pass' | 'fail'; detail?: string }[]): CheckRow[] {
  return checks.map((c) => ({ id: c.id, pass: c.status === 'pass', ...(c.detail !== undefined ? { detail: c.detail } : {}) }));
}

/**
 * The checks, failed ones first (their detail is the point of the report), each with its badge and
 * detail; the passed ones without a detail share one row, so a passing scenario stays short.
 */
export function checksTable(checks: readonly CheckRow[]): Html {
  if (checks.length === 0) return html`<p class="muted">No check applies.</p>`;
  const detailed = [...checks.filter((c) => !c.pass), ...checks.filter((c) => c.pass && c.detail !== undefined)];
  const plain = checks.filter((c) => c.pass && c.detail === undefined);
  const rows = detailed.map(
    (c) =>
      html`<tr class="${verdictOf(c.pass)}"><td>${badge(verdictOf(c.pass))}</td><td class="check"><code>${c.id}</code></td><td>${c.detail !== undefined ? html`<pre class="wrap">${c.detail}</pre>` : ''}</td></tr>`,
  );
  const passed =
    plain.length > 0
      ? html`<tr class="passed"><td>${badge('passed')}</td><td class="passed-list" colspan="2">${plain.map((c) => html`<code>${c.id}</code> `)}</td></tr>`
      : '';
  return html`<table class="checks"><thead><tr><th>verdict</th><th>check</th><th>detail</th></tr></thead><tbody>${rows}${passed}</tbody></table>`;
}
