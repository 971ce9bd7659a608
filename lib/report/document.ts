import { html, trustedHtml, type Html } from './html';
import { REPORT_SCRIPT, scriptHashSource } from './script';
import { REPORT_CSS } from './style';

/** Options every report takes. */
export interface DocumentOptions {
  /** The document's title and heading; each report has its own default. */
  title?: string;
  /**
   * A time to print as "generated at", when the caller wants one. None by default: the same input
   * gives the same bytes, so reports can be compared and archived as they are.
   */
  generatedAt?: Date | string;
}

/**
 * No network, enforced by the browser too: nothing may load from anywhere (`default-src 'none'`), the
 * inline stylesheet and style attributes may apply, and only the report's own script may run.
 */
function contentSecurityPolicy(): string {
  return `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptHashSource()}; base-uri 'none'; form-action 'none'`;
}

/** `generatedAt` as printed: an ISO time for a Date, a string as given. */
export function generatedText(generatedAt: DocumentOptions['generatedAt']): string | undefined {
  if (generatedAt === undefined) return undefined;
  return typeof generatedAt === 'string' ? generatedAt : generatedAt.toISOString();
}

/** `{ generatedAt }` as printed, or nothing: to spread into a summary header. */
export function generatedAt(options: DocumentOptions): { generatedAt?: string } {
  const text = generatedText(options.generatedAt);
  return text === undefined ? {} : { generatedAt: text };
}

/**
 * A complete HTML5 document around `body`: inline stylesheet and script, a Content-Security-Policy
 * that forbids every request, and no reference to any URL, so the file opens anywhere, offline.
 */
export function htmlDocument(title: string, body: Html): string {
  return `<!DOCTYPE html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="admission-harness">
<title>${title}</title>
<style>${trustedHtml(REPORT_CSS)}</style>
</head>
<body>
<main>
${body}
</main>
<script>${trustedHtml(REPORT_SCRIPT)}</script>
</body>
</html>
`.text
  }`;
}
