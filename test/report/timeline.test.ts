// The timeline of a real admission through the example's chain: phases in order, each call's bar as
// wide as its latency over the whole admission, validating webhooks side by side.
import type { AdmitResult } from '../../lib/dispatch/result';
import { htmlFromBattery } from '../../lib/report';
import type { BatteryReport } from '../../lib/battery/battery';
import { barsFromCall, barsFromTrace, timelineHtml, timelineLength } from '../../lib/report/timeline';
import { closeAll, exampleAdmission } from './inputs';

let admitted: AdmitResult;
beforeAll(async () => {
  admitted = await exampleAdmission();
});
afterAll(closeAll);

it('places each step of the trace in its phase, in order, the calls with their durations', () => {
  const bars = barsFromTrace(admitted.trace.steps);
  expect(admitted.allowed).toBe(true);
  const groups = [...new Set(bars.map((b) => b.group))];
  expect(groups[0]).toBe('mutating round 0');
  expect(groups).toContain('validating');
  const mutating = bars.find((b) => b.label === 'pod-defaults/pod-defaults.example.com')!;
  const validating = bars.find((b) => b.label === 'pod-policy/image-policy.example.com')!;
  expect(mutating).toMatchObject({ group: 'mutating round 0', startMs: 0, state: 'passed' });
  expect(mutating.note).toMatch(/^allowed, patch of \d+ ops, mutated/);
  expect(mutating.durationMs).toBeGreaterThan(0);
  // The validating phase starts once the serial steps before it (the mutating call) are done.
  expect(validating.startMs).toBeGreaterThanOrEqual(mutating.durationMs!);
  expect(timelineLength(bars)).toBeCloseTo(validating.startMs + validating.durationMs!, 6);
});

it('draws each bar with its offset and width as a share of the whole admission', () => {
  const bars = barsFromTrace(admitted.trace.steps);
  const total = timelineLength(bars);
  const out = timelineHtml(bars).text;
  const widths = [...out.matchAll(/<span class="bar (\w+)" style="left: ([\d.]+)%; width: ([\d.]+)%">/g)].map((m) => ({
    left: Number(m[2]),
    width: Number(m[3]),
  }));
  expect(widths).toHaveLength(bars.length);
  bars.forEach((bar, i) => {
    expect(widths[i]!.width).toBeCloseTo(((bar.durationMs ?? 0) / total) * 100, 1);
    expect(widths[i]!.left).toBeCloseTo((bar.startMs / total) * 100, 1);
  });
  expect(out).toContain('<div class="phase">mutating round 0</div>');
});

it('shows a call without a trace as one step, to the scale it is given', () => {
  const step = admitted.trace.calls[0]!;
  const [bar] = barsFromCall(step.outcome!);
  expect(bar).toMatchObject({
    group: 'mutating webhook call',
    label: 'pod-defaults/pod-defaults.example.com',
    startMs: 0,
    durationMs: step.outcome!.durationMs,
  });
  expect(timelineHtml([bar!], bar!.durationMs! * 4).text).toMatch(/width: 25%/);
});

it('draws the trace of a battery outcome that carries one, instead of the single call', () => {
  // The battery's calls carry no trace today; an outcome with one (an admission's) is drawn step by step.
  const step = admitted.trace.calls[0]!;
  const report: BatteryReport = {
    seed: admitted.seed,
    results: [
      { webhook: step.webhook, type: 'mutating', scenario: 'CREATE pods', outcome: Object.assign({ ...step.outcome! }, { trace: admitted.trace }), checks: [] },
    ],
    policies: [],
    skipped: [],
    passed: 0,
    failed: 0,
    notRun: [],
  };
  const page = htmlFromBattery(report);
  expect(page).toContain('<div class="phase">mutating round 0</div>');
  expect(page).toContain('<div class="phase">validating</div>');
  expect(page).not.toContain('<div class="phase">mutating webhook call</div>');
  expect(page).toContain('<summary>Trace as text</summary>');
});
