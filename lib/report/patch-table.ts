import type { JsonPatchOperation } from '../kube/admission';
import { html, type Html } from './html';
import { valueCell } from './json-view';

/** A decoded JSON Patch as a table, one operation per row: op, path, from, value. */
export function patchTable(ops: readonly JsonPatchOperation[]): Html {
  const rows = ops.map(
    (op, i) =>
      html`<tr class="op-${op.op}"><td class="index">${i}</td><td class="op"><code>${op.op}</code></td><td class="path"><code>${op.path}</code></td><td class="from">${op.from !== undefined ? html`<code>${op.from}</code>` : ''}</td><td class="value">${'value' in op ? valueCell(op.value) : ''}</td></tr>`,
  );
  return html`<table class="patch"><thead><tr><th>#</th><th>op</th><th>path</th><th>from</th><th>value</th></tr></thead><tbody>${rows}</tbody></table>`;
}
