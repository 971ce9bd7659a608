import { html, type Html } from './html';

/** The verdicts a badge shows; each has its colour in the stylesheet (`.badge.<verdict>`). */
export type Verdict = 'passed' | 'failed' | 'new' | 'updated' | 'skipped' | 'not-run' | 'info';

const WORDS: Readonly<Record<Verdict, string>> = {
  passed: 'pass',
  failed: 'fail',
  new: 'new',
  updated: 'updated',
  skipped: 'skipped',
  'not-run': 'not run',
  info: 'info',
};

/** A pass / fail (or new, updated, …) badge: coloured, and worded so it reads without colour too. */
export function badge(verdict: Verdict, text: string = WORDS[verdict]): Html {
  return html`<span class="badge ${verdict}">${text}</span>`;
}

/** `passed` for a check or call that passed, `failed` otherwise. */
export function verdictOf(pass: boolean): Verdict {
  return pass ? 'passed' : 'failed';
}
