import type { CallOutcome } from '../lib/call/call-webhook';
import type { Harness } from '../lib/harness';
import { SeededRandom } from '../lib/review/random';
import { CHECKS, type CheckId } from './checks';
import { FOLLOW_UP_CHECKS } from './follow-up';
import { scenariosFor, type Scenario } from './requests';

export interface CheckResult {
  id: CheckId;
  webhook: string;
  scenario: string;
  status: 'pass' | 'fail';
  detail?: string;
}

export interface ScenarioResult {
  webhook: string;
  type: 'mutating' | 'validating';
  scenario: string;
  outcome: CallOutcome;
  checks: CheckResult[];
}

export interface BatteryReport {
  seed: number;
  results: ScenarioResult[];
  /** Webhooks (and why) the battery could not exercise. */
  skipped: { webhook: string; reason: string }[];
  passed: number;
  failed: number;
}

export interface BatteryOptions {
  /** Only these checks. */
  only?: CheckId[];
  /** Stop at the first failing scenario. */
  failFast?: boolean;
  /** This machine's part of the scenarios: `{ index: 1, count: 3 }` is the first third (deterministic). */
  shard?: { index: number; count: number };
  /** Told before each scenario, e.g. to draw a progress line. */
  onProgress?: (done: number, total: number, title: string) => void;
}

interface Planned {
  webhook: string;
  qualified: string;
  type: 'mutating' | 'validating';
  timeoutMs: number;
  scenario: Scenario;
  version?: 'v1beta1';
}

/**
 * Runs the conformance battery: for every webhook of the harness's manifests, each request its rules
 * can match (and, for webhooks that accept both, each as v1beta1 too), with every check that applies.
 */
export async function runBattery(harness: Harness, options: BatteryOptions = {}): Promise<BatteryReport> {
  const random = new SeededRandom(harness.seed);
  const wanted = (id: CheckId) => !options.only || options.only.includes(id);
  const skipped: BatteryReport['skipped'] = [];
  const plan: Planned[] = [];
  for (const entry of harness.webhooks) {
    const { scenarios, unsupported } = scenariosFor(entry, random);
    for (const reason of unsupported) skipped.push({ webhook: entry.spec.name, reason });
    const qualified = `${entry.configuration}/${entry.spec.name}`;
    // The budget in real time: timeoutSeconds compressed by the harness's timeScale.
    const timeoutMs = (entry.spec.timeoutSeconds ?? 10) * 1000 * harness.webhook(qualified).timeScale;
    const base = { webhook: entry.spec.name, qualified, type: entry.type, timeoutMs };
    for (const scenario of scenarios) plan.push({ ...base, scenario });
    const versions = entry.spec.admissionReviewVersions ?? [];
    if (versions.includes('v1') && versions.includes('v1beta1')) {
      for (const scenario of scenarios.filter((s) => s.review.attributes.operation === 'CREATE' && !s.dryRunOf)) {
        plan.push({ ...base, scenario: { ...scenario, title: `${scenario.title} [v1beta1]` }, version: 'v1beta1' });
      }
    }
  }
  const mine = options.shard ? plan.filter((_, i) => i % (options.shard as { count: number }).count === (options.shard as { index: number }).index - 1) : plan;

  const results: ScenarioResult[] = [];
  for (const [i, planned] of mine.entries()) {
    options.onProgress?.(i, mine.length, `${planned.webhook} · ${planned.scenario.title}`);
    const { scenario } = planned;
    const outcome = await harness.call(planned.qualified, scenario.review, planned.version ? { version: planned.version } : {});
    const context = { timeoutMs: planned.timeoutMs, kind: scenario.kind };
    const checks: CheckResult[] = [];
    const record = (id: CheckId, verdict: { pass: boolean; detail?: string } | undefined) => {
      if (verdict) checks.push({ id, webhook: planned.webhook, scenario: scenario.title, status: verdict.pass ? 'pass' : 'fail', ...(verdict.detail ? { detail: verdict.detail } : {}) });
    };
    for (const check of CHECKS) if (wanted(check.id)) record(check.id, check.verify(outcome, context));
    if (!planned.version) {
      for (const check of FOLLOW_UP_CHECKS) if (wanted(check.id)) record(check.id, await check.run(harness, planned.qualified, scenario, outcome));
    }
    results.push({ webhook: planned.webhook, type: planned.type, scenario: scenario.title, outcome, checks });
    if (options.failFast && checks.some((c) => c.status === 'fail')) break;
  }
  const all = results.flatMap((r) => r.checks);
  return { seed: harness.seed, results, skipped, passed: all.filter((c) => c.status === 'pass').length, failed: all.filter((c) => c.status === 'fail').length };
}
