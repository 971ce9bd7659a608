import { changeTarget, type Change } from '../diff/json-diff';
import { html, type Html } from './html';
import { valueCell } from './json-view';

/**
 * An object diff (lib/diff/json-diff.ts's changes, the ones failure messages print) as a table, one member
 * per row: added, removed or changed, where, and the values on either side, headed by what the two
 * sides are (`request object` → `patched object`, `recorded` → `replayed`).
 */
export function diffTable(changes: readonly Change[], sides: { before: string; after: string }): Html {
  if (changes.length === 0) return html`<p class="muted">No change.</p>`;
  const rows = changes.map(
    (change) =>
      html`<tr class="${change.kind}"><td class="kind">${change.kind}</td><td class="path"><code>${changeTarget(change)}</code></td><td class="before">${change.kind === 'added' ? '' : valueCell(change.before)}</td><td class="after">${change.kind === 'removed' ? '' : valueCell(change.after)}</td></tr>`,
  );
  return html`<table class="diff"><thead><tr><th>change</th><th>path</th><th>${sides.before}</th><th>${sides.after}</th></tr></thead><tbody>${rows}</tbody></table>`;
}
