// The one escape of the report: every value that reaches the HTML goes through it (html.ts's template
// does it for each interpolation), so a label, an image name or a webhook's message cannot become markup.
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * `text` safe as HTML text and as a quoted attribute value: `&`, `<`, `>`, `"` and `'` become entities.
 * Quotes are escaped too so the same function serves attributes (an id, a title) as well as text.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}
