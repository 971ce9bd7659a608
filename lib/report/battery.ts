import type { BatteryAbort, BatteryReport, ScenarioResult } from '../battery/battery';
import type { PolicyScenarioResult } from '../battery/policy-battery';
import type { CoverageSummary } from '../admission-coverage/summary';
import type { TraceStep } from '../dispatch/trace';
import { badge, verdictOf } from './badge';
import { callDetails } from './call-details';
import { checksTable, rowsOfChecks } from './checks-table';
import { coverageGrid } from './coverage-grid';
import { generatedAt, htmlDocument, type DocumentOptions } from './document';
import { html, type Html } from './html';
import { collapsed, valueCell } from './json-view';
import { summaryHeader, type InPageLink } from './summary-header';
import { barsFromCall, barsFromTrace, callNote, timelineHtml, timelineLength, type TimelineBar } from './timeline';
import { milliseconds } from './units';
import { describeExit } from '../target/exit';
import type { BackendBatteryReport } from '../battery/backend/report';
import { backendSections } from './backend-battery';

export interface BatteryHtmlOptions extends DocumentOptions {
  /** The admission coverage of the run (`h.coverage().summary()`), shown as a grid after the scenarios. */
  coverage?: CoverageSummary;
  /** Show the response's patch as its base64, the reply body, and the patched object, as `check --verbose` does. */
  verbose?: boolean;
  /** The conversion webhooks' battery of the same run, after the admission battery's scenarios. */
  conversion?: BackendBatteryReport;
}

const scenarioAnchor = (i: number) => `scenario-${i}`;
const policyAnchor = (i: number) => `policy-${i}`;

const failed = (result: { checks: readonly { status: 'pass' | 'fail' }[] }) => result.checks.some((c) => c.status === 'fail');

/** An admission trace as the report reads it: its steps, and its text tree (AdmissionTrace's toString). */
interface TraceLike {
  steps: readonly TraceStep[];
  toString(): string;
}

/** A trace the outcome carries, where one does (an admission's); the battery's single calls have none. */
function traceOf(outcome: object): TraceLike | undefined {
  const trace = (outcome as { trace?: { steps?: unknown } }).trace;
  return trace && Array.isArray(trace.steps) ? (trace as TraceLike) : undefined;
}

function scenarioBars(result: ScenarioResult): TimelineBar[] {
  const trace = traceOf(result.outcome);
  return trace ? barsFromTrace(trace.steps) : barsFromCall(result.outcome);
}

/** The `check` command line that repeats the run: the same manifests and target, this seed. */
function reproduceLine(seed: number): string {
  return `admission-harness check … --seed ${seed}`;
}

function reproduceNote(seed: number): Html {
  return html`<p class="reproduce">Failed with seed <strong class="seed">${seed}</strong>: repeat it with <code>${reproduceLine(seed)}</code>, or <code>ADMISSION_HARNESS_SEED=${seed}</code> in a test.</p>`;
}

function scenarioItem(result: ScenarioResult, index: number, context: { seed: number; scaleMs: number; verbose: boolean }): Html {
  const isFailed = failed(result);
  const verdict = verdictOf(!isFailed);
  const bars = scenarioBars(result);
  const trace = traceOf(result.outcome);
  return html`<details class="item scenario ${verdict}" id="${scenarioAnchor(index)}"${isFailed ? html` open` : ''}><summary>${badge(verdict)} <strong>${result.scenario}</strong> <span class="muted">${callNote(result.outcome)} · ${milliseconds(result.outcome.durationMs)}</span></summary><div class="body">${
    isFailed ? reproduceNote(context.seed) : ''
  }<h4>Checks</h4>${checksTable(rowsOfChecks(result.checks))}<h4>Timeline</h4>${timelineHtml(bars, context.scaleMs)}${
    trace ? collapsed('Trace as text', html`<pre>${String(trace)}</pre>`) : ''
  }${callDetails(result.outcome, { seed: context.seed, verbose: context.verbose })}</div></details>`;
}

function policyItem(result: PolicyScenarioResult, index: number, seed: number): Html {
  const isFailed = failed(result);
  const verdict = verdictOf(!isFailed);
  const { evaluation } = result;
  const outcome = !evaluation.matched
    ? 'not matched'
    : evaluation.status
      ? `denied ${evaluation.status.code ?? ''}: ${evaluation.status.message ?? ''}`
      : result.kind === 'MutatingAdmissionPolicy'
        ? evaluation.trace.steps.some((s) => s.mutated)
          ? 'mutated'
          : 'no change'
        : 'allowed';
  const errors =
    evaluation.errors.length > 0
      ? html`<h4>Errors</h4><ul>${[...new Set(evaluation.errors)].map((e) => html`<li><pre class="wrap">${e}</pre></li>`)}</ul>`
      : '';
  const warnings = evaluation.warnings.length > 0 ? html`<h4>Warnings</h4><ul>${evaluation.warnings.map((w) => html`<li>${w}</li>`)}</ul>` : '';
  const object = result.kind === 'MutatingAdmissionPolicy' && evaluation.object ? collapsed('Object after the policy', valueCell(evaluation.object)) : '';
  return html`<details class="item policy ${verdict}" id="${policyAnchor(index)}"${isFailed ? html` open` : ''}><summary>${badge(verdict)} <strong>${result.scenario}</strong> <span class="muted">${outcome}</span></summary><div class="body">${
    isFailed ? reproduceNote(seed) : ''
  }<p class="request">${evaluation.trace.request}</p><h4>Checks</h4>${checksTable(rowsOfChecks(result.checks))}<h4>Timeline</h4>${timelineHtml(barsFromTrace(evaluation.trace.steps))}${collapsed('Trace as text', html`<pre>${String(evaluation.trace)}</pre>`)}${errors}${warnings}${object}</div></details>`;
}

/** Consecutive results with the same key, in the report's order (which is the plan's). */
function groupsOf<T>(items: readonly T[], key: (item: T) => string): { key: string; items: { item: T; index: number }[] }[] {
  const groups: { key: string; items: { item: T; index: number }[] }[] = [];
  items.forEach((item, index) => {
    const last = groups[groups.length - 1];
    if (last && last.key === key(item)) last.items.push({ item, index });
    else groups.push({ key: key(item), items: [{ item, index }] });
  });
  return groups;
}

function abortBanner(abort: BatteryAbort): Html {
  const stderr =
    abort.exit.stderr.length > 0
      ? html`<p>The last lines of its stderr:</p><pre class="wrap">${abort.exit.stderr.join('\n')}</pre>`
      : html`<p>It wrote nothing to stderr.</p>`;
  return html`<div class="banner" id="aborted"><p><strong>The webhook process ended (${describeExit(abort.exit)})</strong> during ${abort.webhook} · ${abort.scenario}; the remaining scenarios were not run.</p><p>Command: <code>${abort.exit.command}</code></p>${stderr}</div>`;
}

/**
 * The conformance battery's report (lib/battery/battery.ts) as one self-contained HTML page: a summary
 * header (verdict, counts, the seed, every failure linked), then per webhook each scenario with its
 * checks, a timeline, the call (request summary, decoded patch, object diff, the review and response
 * as JSON); the policies' scenarios with their traces; what was skipped or not run; and the coverage
 * grid when `coverage` is given. Failing scenarios are open, passing ones fold.
 */
export function htmlFromBattery(report: BatteryReport, options: BatteryHtmlOptions = {}): string {
  const title = options.title ?? 'admission-harness check';
  const verbose = options.verbose === true;
  // One scale for every scenario's bars, so the latencies compare at a glance down the page.
  const scaleMs = Math.max(0, ...report.results.map((r) => timelineLength(scenarioBars(r))));
  const webhookGroups = groupsOf(report.results, (r) => `${r.type}\u0000${r.webhook}`);
  const conversion = options.conversion ? backendSections(options.conversion, 'conversion') : undefined;
  const policyGroups = groupsOf(report.policies, (r) => `${r.kind}\u0000${r.policy}`);

  const webhookSections = webhookGroups.map((group, g) => {
    const first = group.items[0]!.item;
    const groupFailed = group.items.some(({ item }) => failed(item));
    return html`<section class="group ${verdictOf(!groupFailed)}" id="webhook-${g}"><h2>${first.webhook} <span class="muted">(${first.type})</span></h2>${group.items.map(
      ({ item, index }) => scenarioItem(item, index, { seed: report.seed, scaleMs, verbose }),
    )}</section>`;
  });
  const policySections = policyGroups.map((group, g) => {
    const first = group.items[0]!.item;
    const groupFailed = group.items.some(({ item }) => failed(item));
    return html`<section class="group ${verdictOf(!groupFailed)}" id="policy-group-${g}"><h2>${first.kind} ${first.policy}</h2>${group.items.map(({ item, index }) => policyItem(item, index, report.seed))}</section>`;
  });
  const skipped =
    report.skipped.length > 0
      ? html`<section id="skipped"><h2>Not exercised</h2><table><thead><tr><th>webhook</th><th>why</th></tr></thead><tbody>${report.skipped.map((s) => html`<tr><td>${badge('skipped')} ${s.webhook}</td><td>${s.reason}</td></tr>`)}</tbody></table></section>`
      : '';
  const notRun =
    report.notRun.length > 0
      ? html`<section id="not-run"><h2>Not run (${report.notRun.length})</h2><ul>${report.notRun.map((n) => html`<li>${badge('not-run')} ${n.webhook} · ${n.scenario}</li>`)}</ul></section>`
      : '';

  const failures: InPageLink[] = [
    ...report.results.flatMap((r, i) =>
      failed(r)
        ? [
            {
              anchor: scenarioAnchor(i),
              text: `${r.webhook} · ${r.scenario}: ${r.checks
                .filter((c) => c.status === 'fail')
                .map((c) => c.id)
                .join(', ')}`,
            },
          ]
        : [],
    ),
    ...report.policies.flatMap((r, i) =>
      failed(r)
        ? [
            {
              anchor: policyAnchor(i),
              text: `${r.kind} ${r.policy} · ${r.scenario}: ${r.checks
                .filter((c) => c.status === 'fail')
                .map((c) => c.id)
                .join(', ')}`,
            },
          ]
        : [],
    ),
  ];
  const sections: InPageLink[] = [
    ...webhookGroups.map((group, g) => ({
      anchor: `webhook-${g}`,
      text: `${group.items[0]!.item.webhook} (${group.items.length} scenario${group.items.length === 1 ? '' : 's'})`,
    })),
    ...policyGroups.map((group, g) => ({ anchor: `policy-group-${g}`, text: `${group.items[0]!.item.kind} ${group.items[0]!.item.policy}` })),
    ...(report.skipped.length > 0 ? [{ anchor: 'skipped', text: 'Not exercised' }] : []),
    ...(report.notRun.length > 0 ? [{ anchor: 'not-run', text: 'Not run' }] : []),
    ...(options.coverage ? [{ anchor: 'coverage', text: 'Admission coverage' }] : []),
    ...(conversion?.sections ?? []),
  ];
  failures.push(...(conversion?.failures ?? []));
  const scenarios = report.results.length + report.policies.length;
  const header = summaryHeader({
    title,
    verdict: report.failed > 0 || report.aborted || (options.conversion?.failed ?? 0) > 0 ? 'failed' : 'passed',
    counts: [
      { value: scenarios, label: `scenario${scenarios === 1 ? '' : 's'} run` },
      { value: report.passed, label: 'checks passed', verdict: 'passed' },
      { value: report.failed, label: 'checks failed', verdict: 'failed' },
      { value: report.skipped.length, label: 'not exercised', verdict: 'skipped' },
      { value: report.notRun.length, label: 'not run', verdict: 'not-run' },
    ],
    seed: report.seed,
    reproduce: reproduceLine(report.seed),
    failures,
    notes: [
      ...(report.aborted ? [abortBanner(report.aborted)] : []),
      ...(scaleMs > 0 ? [html`<p class="muted">Timeline bars share one scale: the full width is ${milliseconds(scaleMs)}, the longest call.</p>`] : []),
    ],
    sections,
    ...generatedAt(options),
  });
  const empty = scenarios === 0 ? html`<p class="muted">No scenario ran.</p>` : '';
  return htmlDocument(
    title,
    html`${header}${empty}${webhookSections}${policySections}${skipped}${notRun}${options.coverage ? coverageGrid(options.coverage) : ''}${conversion?.body ?? ''}`,
  );
}
