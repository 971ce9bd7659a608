import { html, type Html } from './html';

// A body longer than this is cut in the report: a webhook that answers megabytes should not make the file unreadable.
const MAX_TEXT = 100_000;

/** JSON as the report shows it: indented by two spaces (`undefined` reads as such rather than vanishing). */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** Text cut at MAX_TEXT characters, saying how long it was. */
export function clipped(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters in all)` : text;
}

/** A JSON document as a preformatted block. */
export function jsonBlock(value: unknown): Html {
  return html`<pre class="json">${clipped(prettyJson(value))}</pre>`;
}

/** A value in a table cell: a scalar inline, an object or array as an indented block. */
export function valueCell(value: unknown): Html {
  if (value !== null && typeof value === 'object') return jsonBlock(value);
  return html`<code>${JSON.stringify(value) ?? String(value)}</code>`;
}

/** A closed <details> holding `content` under `title`: opened by a click, scripts or not. */
export function collapsed(title: string, content: Html, className = 'more'): Html {
  return html`<details class="${className}"><summary>${title}</summary>${content}</details>`;
}
