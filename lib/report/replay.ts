import type { CoverageSummary } from '../admission-coverage/summary';
import type { JsonPatchOperation } from '../kube/admission';
import type { Mismatch } from '../replay/compare';
import type { WebhookReplay } from '../replay/types';
import type { FixtureReport, ReplayReport } from '../replay/run';
import { badge, verdictOf, type Verdict } from './badge';
import { callDetails } from './call-details';
import { checksTable } from './checks-table';
import { coverageGrid } from './coverage-grid';
import { diffTable } from './diff-table';
import { generatedAt, htmlDocument, type DocumentOptions } from './document';
import { html, type Html } from './html';
import { collapsed, jsonBlock, valueCell } from './json-view';
import { patchTable } from './patch-table';
import { summaryHeader, type InPageLink } from './summary-header';
import { barsFromCall, timelineHtml, timelineLength } from './timeline';
import { milliseconds } from './units';

export interface ReplayHtmlOptions extends DocumentOptions {
  /** The admission coverage of the replayed requests (`h.coverage().summary()`), shown as a grid after the fixtures. */
  coverage?: CoverageSummary;
}

const fixtureAnchor = (i: number) => `fixture-${i}`;

/** The `replay` command line that repeats the run with this seed. */
function reproduceLine(seed: number): string {
  return `admission-harness replay … --seed ${seed}`;
}

/** A webhook's replay fails on a call error, a failed follow-up check, or (unless the recording was just updated) a difference. */
function webhookFailed(replay: WebhookReplay, updated: boolean): boolean {
  return replay.callError !== undefined || replay.followUps.some((f) => !f.pass) || (!updated && replay.mismatches.length > 0);
}

/** A mismatch's side of the patch as a table when it is one (it always is from compareAnswers), as JSON otherwise. */
function patchOrValue(value: unknown): Html {
  const isPatch =
    Array.isArray(value) &&
    value.every(
      (op) => op !== null && typeof op === 'object' && typeof (op as JsonPatchOperation).op === 'string' && typeof (op as JsonPatchOperation).path === 'string',
    );
  return isPatch ? patchTable(value as JsonPatchOperation[]) : valueCell(value);
}

/**
 * One member that differs from the recording. The patch is compared by its effect, so it reads as the
 * object diff (the object after the recorded patch → after the replayed one), with both patches below.
 */
function mismatchHtml(mismatch: Mismatch): Html {
  if (mismatch.field !== 'patch') {
    return html`<tr><td><code>${mismatch.field}</code></td><td>${valueCell(mismatch.recorded)}</td><td>${valueCell(mismatch.replayed)}</td></tr>`;
  }
  const detail = mismatch.detail !== undefined ? html`<p>${mismatch.detail}</p>` : '';
  const changes =
    (mismatch.changes ?? []).length > 0 || mismatch.detail === undefined
      ? html`<p>The object after the replayed patch differs from the object after the recorded one:</p>${diffTable(mismatch.changes ?? [], { before: 'recorded', after: 'replayed' })}`
      : '';
  const patches = html`${collapsed('Recorded patch', patchOrValue(mismatch.recorded))}${collapsed('Replayed patch', patchOrValue(mismatch.replayed))}`;
  return html`<tr><td><code>patch</code></td><td colspan="2">${detail}${changes}${patches}</td></tr>`;
}

function webhookSection(replay: WebhookReplay, context: { seed: number; updated: boolean; scaleMs: number }): Html {
  const isFailed = webhookFailed(replay, context.updated);
  const callError = replay.callError !== undefined ? html`<h4>The call failed</h4><pre class="wrap">${replay.callError}</pre>` : '';
  const heading = context.updated ? 'Changed from the recording (now recorded)' : 'Differences from the recording';
  const mismatches =
    replay.mismatches.length > 0
      ? html`<h4>${heading} <span class="muted">(recorded → replayed)</span></h4><table class="mismatches"><thead><tr><th>field</th><th>recorded</th><th>replayed</th></tr></thead><tbody>${replay.mismatches.map(mismatchHtml)}</tbody></table>`
      : '';
  const followUps = replay.followUps.length > 0 ? html`<h4>Follow-up checks</h4>${checksTable(replay.followUps)}` : '';
  return html`<section class="webhook-replay ${verdictOf(!isFailed)}"><h3>${badge(verdictOf(!isFailed))} ${replay.reference} <span class="muted">(${replay.type})</span></h3>${callError}${mismatches}${followUps}<h4>Timeline</h4>${timelineHtml(
    barsFromCall(replay.outcome),
    context.scaleMs,
  )}${callDetails(replay.outcome, { seed: context.seed })}</section>`;
}

const VERDICTS: Readonly<Record<FixtureReport['verdict'], Verdict>> = { passed: 'passed', failed: 'failed', new: 'new', updated: 'updated' };

function fixtureItem(result: FixtureReport, index: number, context: { seed: number; scaleMs: number }): Html {
  const verdict = VERDICTS[result.verdict];
  const isFailed = result.verdict === 'failed';
  const notes: Html[] = [];
  if (isFailed)
    notes.push(
      html`<p class="reproduce">Failed with seed <strong class="seed">${context.seed}</strong>: repeat it with <code>${reproduceLine(context.seed)}</code>.</p>`,
    );
  if (result.unmatched) notes.push(html`<p><strong>No webhook got the request:</strong> ${result.unmatched}</p>`);
  if (result.disagreement) notes.push(html`<p><strong>The webhooks disagree:</strong> ${result.disagreement}</p>`);
  if (result.chain)
    notes.push(html`<p><strong>The chain differs from the recorded admission:</strong></p><ul>${result.chain.map((line) => html`<li>${line}</li>`)}</ul>`);
  if (!result.compared && !result.updated) notes.push(html`<p class="muted">No response is recorded: the answer was not compared (update to record it).</p>`);
  if (result.updated)
    notes.push(html`<p>The response was ${result.compared ? 'rewritten with the new answer' : 'recorded'} in <code>${result.fixture.file}</code>.</p>`);
  if (result.updateError) notes.push(html`<p><strong>Could not update:</strong> ${result.updateError}</p>`);
  const recorded = result.fixture.recorded.kind === 'RecordedReview' ? result.fixture.recorded.response : result.fixture.recorded.answers;
  const recordedBlock = recorded
    ? collapsed(result.fixture.recorded.kind === 'RecordedReview' ? 'Recorded response' : 'Recorded answers', jsonBlock(recorded))
    : '';
  const longest = Math.max(0, ...result.webhooks.map((w) => w.outcome.durationMs));
  return html`<details class="item fixture ${verdict}" id="${fixtureAnchor(index)}"${isFailed ? html` open` : ''}><summary>${badge(verdict)} <strong>${result.fixture.name}</strong> <span class="muted">${result.fixture.review.summary()}${
    result.webhooks.length > 0 ? ` · ${milliseconds(longest)}` : ''
  }</span></summary><div class="body"><p class="muted">${result.fixture.file}${result.fixture.document > 0 ? `, document ${result.fixture.document + 1}` : ''}</p>${notes}${result.webhooks.map(
    (w) => webhookSection(w, { seed: context.seed, updated: result.updated, scaleMs: context.scaleMs }),
  )}${recordedBlock}</div></details>`;
}

/**
 * A replay report (lib/replay) as one self-contained HTML page: a summary header (verdict, counts, the
 * seed, every failing fixture linked), then per fixture its verdict and, per webhook that answered, how
 * the answer differs from the recording (the patch as the object diff, recorded → replayed), the
 * follow-up checks, a timeline of the call and the call itself; the coverage grid when given.
 */
export function htmlFromReplay(report: ReplayReport, options: ReplayHtmlOptions = {}): string {
  const title = options.title ?? 'admission-harness replay';
  const scaleMs = Math.max(0, ...report.results.flatMap((r) => r.webhooks.map((w) => timelineLength(barsFromCall(w.outcome)))));
  const failures: InPageLink[] = report.results.flatMap((r, i) =>
    r.verdict === 'failed' ? [{ anchor: fixtureAnchor(i), text: `${r.fixture.name} · ${r.fixture.review.summary()}` }] : [],
  );
  const header = summaryHeader({
    title,
    verdict: report.failed > 0 ? 'failed' : 'passed',
    counts: [
      { value: report.results.length, label: `fixture${report.results.length === 1 ? '' : 's'}` },
      { value: report.passed, label: 'passed', verdict: 'passed' },
      { value: report.failed, label: 'failed', verdict: 'failed' },
      { value: report.new, label: 'new', verdict: 'new' },
      { value: report.updated, label: 'updated', verdict: 'updated' },
    ],
    seed: report.seed,
    reproduce: reproduceLine(report.seed),
    failures,
    notes: scaleMs > 0 ? [html`<p class="muted">Timeline bars share one scale: the full width is ${milliseconds(scaleMs)}, the longest call.</p>`] : [],
    sections: [
      { anchor: 'fixtures', text: `Fixtures (${report.results.length})` },
      ...(options.coverage ? [{ anchor: 'coverage', text: 'Admission coverage' }] : []),
    ],
    ...generatedAt(options),
  });
  const fixtures =
    report.results.length > 0
      ? report.results.map((r, i) => fixtureItem(r, i, { seed: report.seed, scaleMs }))
      : html`<p class="muted">No fixture was replayed.</p>`;
  return htmlDocument(
    title,
    html`${header}<section id="fixtures"><h2>Fixtures</h2>${fixtures}</section>${options.coverage ? coverageGrid(options.coverage) : ''}`,
  );
}
