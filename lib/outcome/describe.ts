import type { AdmitResult } from '../dispatch/result';
import { requestLine } from '../review/review';
import { formatChanges, type Change } from '../diff/json-diff';
import type { CallOrAdmit, CallSubject } from './subject';

const MAX_BODY = 2000;

/** `CREATE pods default/web-1 (dryRun) → pod-defaults.example.com · seed 42`: which request this was. */
export function requestSummary(subject: CallSubject): string {
  const request = subject.review.request;
  let line = request ? `${requestLine(request)} → ${subject.webhook} [${subject.review.apiVersion}]` : subject.webhook;
  if (subject.seed !== undefined) line += ` · seed ${subject.seed} (replay: ADMISSION_HARNESS_SEED=${subject.seed})`;
  return line;
}

/**
 * The response as a reader wants it: the patch decoded below it, so its base64 is left out unless
 * `verbose` asks for the bytes as they came.
 */
function responseText(subject: CallSubject, verbose: boolean): string {
  const response = subject.response as (CallSubject['response'] & { patch?: string }) | undefined;
  if (!response?.patch || verbose) return JSON.stringify(response);
  return JSON.stringify({ ...response, patch: `(${response.patch.length} characters of base64: decoded below)` });
}

/** The parts of a call outcome a reader needs to see why a matcher failed; `verbose` adds the patch's base64. */
export function outcomeDetails(subject: CallSubject, options: { verbose?: boolean } = {}): string {
  const lines = [`Request:  ${requestSummary(subject)}`];
  if (subject.url) lines.push(`URL:      POST ${subject.url}`);
  if (subject.error) {
    lines.push(`Error:    ${subject.error.message}`, `Hint:     ${subject.error.hint}`);
  }
  if (subject.httpStatus !== undefined) lines.push(`HTTP:     ${subject.httpStatus}`);
  if (subject.response) lines.push(`Response: ${truncate(responseText(subject, options.verbose === true))}`);
  else if (subject.body !== undefined) lines.push(`Body:     ${truncate(subject.body)}`);
  if (subject.patch) lines.push(`Patch:    ${truncate(JSON.stringify(subject.patch))}`);
  if (subject.denial) lines.push(`Status:   ${subject.denial.code} ${subject.denial.message}`);
  if (subject.rejection) lines.push(`Refused:  ${subject.rejection.code} ${subject.rejection.message ?? ''}`);
  return lines.join('\n');
}

/** An admission result for a failure message: the status, warnings, then the trace tree. */
export function admitDetails(result: AdmitResult): string {
  const lines: string[] = [];
  if (result.status) lines.push(`Status:   ${result.status.code} ${result.status.reason ?? ''} ${result.status.message ?? ''}`.replace(/ {2,}/g, ' '));
  if (result.warnings.length > 0) lines.push(`Warnings: ${result.warnings.map((w) => JSON.stringify(w)).join(', ')}`);
  lines.push(
    `Replay:   ADMISSION_HARNESS_SEED=${result.seed}`,
    'Trace:',
    ...String(result.trace)
      .split('\n')
      .map((l) => `  ${l}`),
  );
  return lines.join('\n');
}

/** The details of whichever kind of result a matcher received. */
export function subjectDetails(subject: CallOrAdmit): string {
  return subject.source === 'call' ? outcomeDetails(subject.call) : admitDetails(subject.admit);
}

/** `Changes (request object → patched):` followed by one line per change. */
export function changesSection(title: string, changes: readonly Change[]): string {
  return `${title}:\n${formatChanges(changes)}`;
}

/** A failure message: the matcher hint, why it failed, then what a reader needs, separated by blank lines. */
export function report(hint: string, why: string, ...sections: (string | undefined)[]): string {
  return [hint, why, ...sections].filter((s) => s !== undefined && s !== '').join('\n\n');
}

/** Text for a message, cut off where it would drown the rest. */
export function truncate(text: string): string {
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} characters)` : text;
}
