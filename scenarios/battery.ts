import type { CallOutcome } from '../lib/call/call-webhook';
import type { Harness } from '../lib/harness';
import { SeededRandom } from '../lib/review/random';
import { CHECKS, type CheckId } from './checks';
import { scenariosFor } from './requests';

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
}

/**
 * Runs the conformance battery: for every webhook of the harness's manifests, each request its rules
 * can match, with every check that applies to the outcome.
 */
export async function runBattery(harness: Harness, options: BatteryOptions = {}): Promise<BatteryReport> {
  const random = new SeededRandom(harness.seed);
  const checks = options.only ? CHECKS.filter((c) => options.only?.includes(c.id)) : CHECKS;
  const results: ScenarioResult[] = [];
  const skipped: BatteryReport['skipped'] = [];
  for (const entry of harness.webhooks) {
    const name = `${entry.configuration}/${entry.spec.name}`;
    const { scenarios, unsupported } = scenariosFor(entry, random);
    for (const reason of unsupported) skipped.push({ webhook: entry.spec.name, reason });
    for (const scenario of scenarios) {
      const outcome = await harness.call(name, scenario.review);
      const timeoutMs = (entry.spec.timeoutSeconds ?? 10) * 1000;
      const checked: CheckResult[] = checks.flatMap((check) => {
        const verdict = check.verify(outcome, { timeoutMs });
        if (!verdict) return [];
        return [{ id: check.id, webhook: entry.spec.name, scenario: scenario.title, status: verdict.pass ? 'pass' : 'fail', ...(verdict.detail ? { detail: verdict.detail } : {}) }];
      });
      results.push({ webhook: entry.spec.name, type: entry.type, scenario: scenario.title, outcome, checks: checked });
      if (options.failFast && checked.some((c) => c.status === 'fail')) return summarize(harness.seed, results, skipped);
    }
  }
  return summarize(harness.seed, results, skipped);
}

function summarize(seed: number, results: ScenarioResult[], skipped: BatteryReport['skipped']): BatteryReport {
  const all = results.flatMap((r) => r.checks);
  return { seed, results, skipped, passed: all.filter((c) => c.status === 'pass').length, failed: all.filter((c) => c.status === 'fail').length };
}
