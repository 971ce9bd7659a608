import type { CallOutcome } from '../call/call-webhook';
import type { TraceStep } from '../dispatch/trace';
import { html, type Html } from './html';
import { cssPercent, milliseconds } from './units';

/** One bar of a timeline: a webhook, plugin, policy or registry step, placed in time. */
export interface TimelineBar {
  /** The phase (and round, and storage attempt) it belongs to: `mutating round 0`. */
  group: string;
  label: string;
  /** When it started, from the beginning of the admission, as far as the durations tell. */
  startMs: number;
  /** Undefined for a step that took no measured time (skipped, a plugin, a policy, the registry). */
  durationMs?: number;
  state: 'passed' | 'failed' | 'skipped';
  /** What happened, in a few words. */
  note: string;
}

/** Steps the chain takes in parallel: validating webhooks (kube-apiserver calls them concurrently). */
function parallel(step: TraceStep): boolean {
  return step.phase === 'validating' && !step.plugin && !step.policy;
}

function groupOf(step: TraceStep): string {
  const phase =
    step.phase === 'mutating'
      ? `mutating round ${step.round}`
      : step.phase === 'registry'
        ? 'registry'
        : step.phase === 'validating-policy'
          ? 'validating admission policies'
          : 'validating';
  return step.attempt ? `storage attempt ${step.attempt.number} of ${step.attempt.of} (${step.attempt.step}): ${phase}` : phase;
}

// The trace's own labels and descriptions (lib/dispatch/trace.ts) are private to its toString(); these
// are the same facts in the few words a timeline row has room for. The full text tree is shown beside it.
function labelOf(step: TraceStep): string {
  if (step.plugin) return `${step.webhook} (built-in plugin)`;
  if (step.phase === 'registry') return 'strategy and validation';
  if (step.policy) return `${step.policy.kind} ${step.configuration}${step.webhook ? ` with binding ${step.webhook}` : ''}`;
  return `${step.configuration}/${step.webhook}`;
}

function stateOf(step: TraceStep): TimelineBar['state'] {
  if (step.decision === 'skipped' || step.decision === 'not-reinvoked') return 'skipped';
  if (step.rejection || step.decision === 'rejected-without-call') return 'failed';
  const outcome = step.outcome;
  if (outcome && (outcome.denial || (outcome.error && !step.failedOpen))) return 'failed';
  return 'passed';
}

function noteOf(step: TraceStep): string {
  const why = step.why[step.why.length - 1] ?? '';
  if (step.decision === 'skipped') return `skipped — ${why}`;
  if (step.decision === 'not-reinvoked') return 'not reinvoked';
  if (step.rejection) return `rejected — ${step.rejection.code ?? ''} ${step.rejection.message ?? ''}`.replace(/ {2,}/g, ' ');
  if (step.decision === 'rejected-without-call') return 'rejected without a call';
  if (step.plugin) return 'changed the object';
  if (step.phase === 'registry') return 'the object is valid';
  if (step.policy) return step.policy.outcome;
  return step.outcome ? callNote(step.outcome, step) : 'called';
}

/** What one call answered: `allowed, patch of 2 ops`, `denied 403: …`, `failed: …`. */
export function callNote(outcome: CallOutcome, step?: Pick<TraceStep, 'failedOpen' | 'mutated'>): string {
  if (outcome.error) return `${step?.failedOpen ? 'failed open' : 'failed'} — ${outcome.error.message}`;
  if (outcome.denial) return `denied ${outcome.denial.code ?? ''}: ${outcome.denial.message ?? ''}`;
  const ops = outcome.patch?.length ?? 0;
  const patch = ops > 0 ? `, patch of ${ops} op${ops === 1 ? '' : 's'}${step?.mutated === undefined ? '' : step.mutated ? ', mutated' : ', no change'}` : '';
  const warnings = outcome.warnings.length > 0 ? `, ${outcome.warnings.length} warning${outcome.warnings.length === 1 ? '' : 's'}` : '';
  return `allowed${patch}${warnings}`;
}

/**
 * An admission trace's steps as bars: serial steps one after the other, the validating webhooks of a
 * phase side by side from the phase's start (they run in parallel), each as long as its call took.
 */
export function barsFromTrace(steps: readonly TraceStep[]): TimelineBar[] {
  const bars: TimelineBar[] = [];
  let cursor = 0;
  let group = '';
  // The parallel run in progress: where it started and where its longest call ended.
  let run: { start: number; end: number } | undefined;
  for (const step of steps) {
    const stepGroup = groupOf(step);
    if (run && (stepGroup !== group || !parallel(step))) {
      cursor = run.end;
      run = undefined;
    }
    group = stepGroup;
    const duration = step.durationMs;
    let start = cursor;
    if (parallel(step)) {
      run ??= { start: cursor, end: cursor };
      start = run.start;
      run.end = Math.max(run.end, start + (duration ?? 0));
    } else cursor += duration ?? 0;
    bars.push({
      group,
      label: labelOf(step),
      startMs: start,
      ...(duration !== undefined ? { durationMs: duration } : {}),
      state: stateOf(step),
      note: noteOf(step),
    });
  }
  return bars;
}

/** A call without a trace (h.call, the battery's scenarios) as a timeline of one step: the call itself. */
export function barsFromCall(outcome: CallOutcome): TimelineBar[] {
  const state = outcome.error || outcome.denial ? 'failed' : 'passed';
  const name = outcome.configuration ? `${outcome.configuration}/${outcome.webhook}` : outcome.webhook;
  return [{ group: `${outcome.type} webhook call`, label: name, startMs: 0, durationMs: outcome.durationMs, state, note: callNote(outcome) }];
}

/** Where the last bar ends: the admission's length as far as the durations tell. */
export function timelineLength(bars: readonly TimelineBar[]): number {
  return bars.reduce((end, bar) => Math.max(end, bar.startMs + (bar.durationMs ?? 0)), 0);
}

/**
 * The bars as rows under their phase headings, each bar's offset and width proportional to its start
 * and duration over `scaleMs` (the full width), with its duration printed beside it.
 */
export function timelineHtml(bars: readonly TimelineBar[], scaleMs: number = timelineLength(bars)): Html {
  if (bars.length === 0) return html`<p class="muted">No step: no webhook or policy is configured for this request.</p>`;
  const rows: Html[] = [];
  let group: string | undefined;
  for (const bar of bars) {
    if (bar.group !== group) {
      group = bar.group;
      rows.push(html`<div class="phase">${bar.group}</div>`);
    }
    const left = scaleMs > 0 ? bar.startMs / scaleMs : 0;
    const width = scaleMs > 0 && bar.durationMs !== undefined ? bar.durationMs / scaleMs : 0;
    rows.push(
      html`<div class="label" title="${bar.label}">${bar.label}</div><div class="track"><span class="bar ${bar.state}" style="left: ${cssPercent(left)}; width: ${cssPercent(width)}"></span></div><div class="duration">${bar.durationMs !== undefined ? milliseconds(bar.durationMs) : '—'}</div><div class="note">${bar.note}</div>`,
    );
  }
  return html`<div class="timeline">${rows}</div>`;
}
