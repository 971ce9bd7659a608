import { escapeHtml } from './escape';

/** Markup the report built itself, which the `html` template inserts as it is; anything else it escapes. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/**
 * What a template may interpolate: markup, text (escaped), numbers, and `false` / `null` / `undefined`
 * for nothing, so `failed && html\`…\`` reads as a condition. Arrays are joined.
 */
export type HtmlPart = Html | string | number | false | null | undefined | readonly HtmlPart[];

function render(part: HtmlPart): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return (part as readonly HtmlPart[]).map(render).join('');
  if (part === false || part === null || part === undefined) return '';
  return escapeHtml(String(part));
}

/**
 * A tagged template that escapes every interpolated value unless it is `Html`: the report's markup is
 * written only in template literals, so nothing user-provided reaches the document unescaped.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlPart[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, i) => {
    text += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(text);
}

/**
 * Text the report itself wrote (its stylesheet and script) inserted without escaping. Never pass it
 * anything that came from a report's input.
 */
export function trustedHtml(text: string): Html {
  return new Html(text);
}
