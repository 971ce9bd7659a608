import type { CallOutcome } from '../call/call-webhook';
import type { PatchedOutcome } from '../harness';
import { requestSummary } from '../outcome/describe';
import { mutationOf } from '../outcome/mutation';
import { diffTable } from './diff-table';
import { html, type Html } from './html';
import { clipped, collapsed, jsonBlock, valueCell } from './json-view';
import { patchTable } from './patch-table';

/** A call's outcome as h.call returns it: the harness adds what the API made of the patch. */
export type ReportedCall = CallOutcome & { patched?: PatchedOutcome };

export interface CallDetailsOptions {
  /** The run's seed, printed with the request so the call can be made again. */
  seed: number;
  /** Show the response's patch as the base64 it came as, the reply body, and the patched object. */
  verbose?: boolean;
}

/** The response member as a reader wants it: its base64 patch replaced by a note (decoded in the table) unless verbose. */
function shownResponse(outcome: CallOutcome, verbose: boolean): unknown {
  const response = outcome.response as (CallOutcome['response'] & { patch?: string }) | undefined;
  if (!response?.patch || verbose) return response;
  return { ...response, patch: `(${response.patch.length} characters of base64: decoded in the patch table)` };
}

function facts(outcome: ReportedCall, seed: number): Html {
  const rows: [string, Html | string][] = [['request', requestSummary({ ...outcome, seed })]];
  if (outcome.url) rows.push(['URL', `POST ${outcome.url}`]);
  if (outcome.httpStatus !== undefined) rows.push(['HTTP status', String(outcome.httpStatus)]);
  if (outcome.error) rows.push(['error', html`<pre class="wrap">${outcome.error.message}</pre>`], ['hint', outcome.error.hint]);
  if (outcome.denial)
    rows.push(['status', `${outcome.denial.code ?? ''} ${outcome.denial.reason ?? ''} ${outcome.denial.message ?? ''}`.replace(/ {2,}/g, ' ').trim()]);
  if (outcome.warnings.length > 0) rows.push(['warnings', html`<ul>${outcome.warnings.map((w) => html`<li>${w}</li>`)}</ul>`]);
  const annotations = Object.entries(outcome.auditAnnotations);
  if (annotations.length > 0) rows.push(['audit annotations', html`<ul>${annotations.map(([k, v]) => html`<li><code>${k}</code>: ${v}</li>`)}</ul>`]);
  if (outcome.patched?.ok && outcome.patched.invalid) {
    const invalid = outcome.patched.invalid;
    rows.push(['patched object', `the API refuses it: ${invalid.code ?? ''} ${invalid.message ?? ''}`]);
  }
  return html`<table class="facts"><tbody>${rows.map(([name, value]) => html`<tr><th scope="row">${name}</th><td>${value}</td></tr>`)}</tbody></table>`;
}

/**
 * What the patch did to the object, as the matchers judge it (lib/outcome/mutation.ts): the request's
 * object as the API held it → the object the API continues with, member by member; or why there is none.
 */
function objectDiff(outcome: ReportedCall): Html {
  if (!outcome.patch || outcome.patch.length === 0 || outcome.error || outcome.denial) return html``;
  const mutation = mutationOf(outcome);
  if (!mutation.ok) return html`<h4>Object diff</h4><pre class="wrap">${mutation.why}</pre>`;
  return html`<h4>Object diff <span class="muted">(request object → patched object)</span></h4>${diffTable(mutation.changes, { before: 'request object', after: 'patched object' })}`;
}

/**
 * One webhook call for a reader: the request summary (with the seed), URL, status, error and hint,
 * warnings; the decoded patch as a table and the object diff; the AdmissionReview sent and the
 * response as indented JSON, folded.
 */
export function callDetails(outcome: ReportedCall, options: CallDetailsOptions): Html {
  const verbose = options.verbose === true;
  const patch =
    outcome.patch && outcome.patch.length > 0 ? html`<h4>Patch <span class="muted">(decoded JSON Patch)</span></h4>${patchTable(outcome.patch)}` : '';
  const response = outcome.response
    ? collapsed('Response', jsonBlock(shownResponse(outcome, verbose)))
    : outcome.body !== undefined
      ? collapsed('Reply body', html`<pre class="wrap">${clipped(outcome.body)}</pre>`)
      : '';
  const body =
    verbose && outcome.response && outcome.body !== undefined
      ? collapsed('Reply body as received', html`<pre class="wrap">${clipped(outcome.body)}</pre>`)
      : '';
  const patched = verbose && outcome.patched?.ok ? collapsed('Patched object (decoded and defaulted)', valueCell(outcome.patched.object)) : '';
  return html`<h4>Call</h4>${facts(outcome, options.seed)}${patch}${objectDiff(outcome)}${collapsed('AdmissionReview sent', jsonBlock(outcome.review))}${response}${body}${patched}`;
}
