import type { CallOutcome } from '../call/call-webhook';
import type { WebhookEntry } from '../config/load';
import type { Harness, PatchedOutcome } from '../harness';
import type { KubeObject } from '../kube/admission';
import type { TargetExit } from '../target/command';
import { SeededRandom } from '../random';
import { CHECKS, type CheckContext, type CheckId } from './checks';
import { FOLLOW_UP_CHECKS } from './follow-up';
import { scenariosFor, type Scenario } from './requests';
import { planPolicies, runPolicyScenario, type PolicyCheckId, type PolicyScenarioResult } from './policy-battery';
import { planSelectors, runExclusion, type ExclusionProbe } from './selector-probes';
import type { NamespaceSpec } from '../match/namespace-store';

/** Every webhook check id the battery knows: the per-call checks, then the follow-up ones. */
export const CHECK_IDS: readonly CheckId[] = [...CHECKS, ...FOLLOW_UP_CHECKS].map((check) => check.id);
/** Every check id `--only` and `--skip` accept: the webhooks', then the policies'. */
export const ALL_CHECK_IDS: readonly (CheckId | PolicyCheckId)[] = [...CHECK_IDS, 'policy-evaluates'];

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
  /** The ValidatingAdmissionPolicies' scenarios, after the webhooks'. */
  policies: PolicyScenarioResult[];
  /** Webhooks, or a side of their selectors, the battery could not exercise, and why. */
  skipped: { webhook: string; reason: string }[];
  /** Checks passed and failed, over every scenario run. */
  passed: number;
  failed: number;
  /** Set when the target process ended during the run: the run stopped there. */
  aborted?: BatteryAbort;
  /** Scenarios planned but not run (after an abort, or after --fail-fast), in plan order. */
  notRun: { webhook: string; scenario: string }[];
}

/** The target process ended mid-run: how, and during which scenario. */
export interface BatteryAbort {
  webhook: string;
  scenario: string;
  exit: TargetExit;
}

export interface BatteryOptions {
  /** Only these checks. */
  only?: (CheckId | PolicyCheckId)[];
  /** All checks but these (with `only`: those of `only` not listed here). */
  skip?: (CheckId | PolicyCheckId)[];
  /** Stop at the first failing scenario. */
  failFast?: boolean;
  /** This machine's part of the scenarios: `{ index: 1, count: 3 }` is the first third (deterministic). */
  shard?: { index: number; count: number };
  /** Told before each scenario, e.g. to draw a progress line. */
  onProgress?: (done: number, total: number, title: string) => void;
  /**
   * Scenarios in flight at once (4 by default): a webhook that hangs costs its timeout once per
   * `concurrency` scenarios, not once per scenario. The report keeps the plan's order whatever it is.
   */
  concurrency?: number;
}

/** One scenario of the battery for one webhook. */
export interface PlannedScenario {
  webhook: string;
  qualified: string;
  type: 'mutating' | 'validating';
  /** timeoutSeconds in real milliseconds (after timeScale). */
  timeoutMs: number;
  scenario: Scenario;
  version?: 'v1beta1';
}

/**
 * The battery's scenarios: for every webhook, each request its rules can match (and, for webhooks
 * that accept both, each CREATE as v1beta1 too), in a deterministic order for the seed, placed where
 * its selectors match; and, for its selectors, the namespaces to declare and the admissions that
 * show their other side.
 */
export function planBattery(
  webhooks: readonly WebhookEntry[],
  seed: number,
  timeScale = 1,
): { plan: PlannedScenario[]; skipped: BatteryReport['skipped'] } & SelectorRun {
  const random = new SeededRandom(seed);
  const skipped: BatteryReport['skipped'] = [];
  const plan: PlannedScenario[] = [];
  const selectors: SelectorRun = { namespaces: [], exclusions: [] };
  for (const [index, entry] of webhooks.entries()) {
    const { scenarios: built, unsupported } = scenariosFor(entry, random);
    // Sent from a namespace and with labels its selectors match; their other sides shown by admissions.
    const { scenarios, namespaces, exclusions, notes } = planSelectors(entry, index, built);
    selectors.namespaces.push(...namespaces);
    selectors.exclusions.push(...exclusions);
    for (const reason of [...unsupported, ...(built.length > 0 ? notes : [])]) skipped.push({ webhook: entry.spec.name, reason });
    const base = {
      webhook: entry.spec.name,
      qualified: `${entry.configuration}/${entry.spec.name}`,
      type: entry.type,
      timeoutMs: (entry.spec.timeoutSeconds ?? 10) * 1000 * timeScale,
    };
    for (const scenario of scenarios) plan.push({ ...base, scenario });
    const versions = entry.spec.admissionReviewVersions ?? [];
    if (versions.includes('v1') && versions.includes('v1beta1')) {
      for (const scenario of scenarios.filter((s) => s.review.attributes.operation === 'CREATE' && !s.dryRunOf)) {
        plan.push({ ...base, scenario: { ...scenario, title: `${scenario.title} [v1beta1]` }, version: 'v1beta1' });
      }
    }
  }
  return { plan, skipped, ...selectors };
}

/** What the battery does for the webhooks' selectors: the namespaces it declares, the admissions that show their other side. */
export interface SelectorRun {
  namespaces: NamespaceSpec[];
  exclusions: ExclusionProbe[];
}

function unpatched(object: KubeObject | null): PatchedOutcome {
  return { ok: true, object, decoded: object, before: object, changed: false, onlyFreshTimes: false, dropped: [], defaulted: [] };
}

/** Sends one planned scenario and runs every check that applies to its outcome. */
export async function runScenario(harness: Harness, planned: PlannedScenario, only?: readonly CheckId[]): Promise<ScenarioResult> {
  return (await runWatchedScenario(harness, planned, (id) => !only || only.includes(id))).result;
}

/** A call that failed on the connection: the target may have died under it. */
function lostConnection(outcome: CallOutcome): boolean {
  const transport = outcome.error?.transport;
  return transport === 'refused' || transport === 'closed';
}

/**
 * runScenario, also saying whether any of its calls (the follow-up checks' too) failed on the connection:
 * a process that dies between a scenario's first call and its reinvocation must not read as an idempotence bug.
 */
async function runWatchedScenario(
  harness: Harness,
  planned: PlannedScenario,
  wanted: (id: CheckId) => boolean,
): Promise<{ result: ScenarioResult; lost: boolean }> {
  let lost = false;
  // The same harness, with its calls watched (the harness is a plain object of closures: no `this` to keep).
  const watched: Harness = Object.create(harness, {
    call: {
      value: async (...args: Parameters<Harness['call']>) => {
        const outcome = await harness.call(...args);
        if (lostConnection(outcome)) lost = true;
        return outcome;
      },
    },
  }) as Harness;
  const { scenario } = planned;
  const outcome = await watched.call(planned.qualified, scenario.review, planned.version ? { version: planned.version } : {});
  // The harness judged the patch as kube-apiserver would (decoded, defaulted, validated); no patch changes nothing.
  const applied =
    outcome.type === 'mutating' && outcome.allowed && !outcome.error ? (outcome.patched ?? unpatched(outcome.review.request?.object ?? null)) : undefined;
  const context: CheckContext = { timeoutMs: planned.timeoutMs, kind: scenario.kind, ...(applied ? { applied } : {}) };
  const checks: CheckResult[] = [];
  const record = (id: CheckId, verdict: { pass: boolean; detail?: string } | undefined) => {
    if (verdict)
      checks.push({
        id,
        webhook: planned.webhook,
        scenario: scenario.title,
        status: verdict.pass ? 'pass' : 'fail',
        ...(verdict.detail ? { detail: verdict.detail } : {}),
      });
  };
  for (const check of CHECKS) if (wanted(check.id)) record(check.id, check.verify(outcome, context));
  if (!planned.version) {
    for (const check of FOLLOW_UP_CHECKS) if (wanted(check.id)) record(check.id, await check.run(watched, planned.qualified, scenario, outcome, context));
  }
  return { result: { webhook: planned.webhook, type: planned.type, scenario: scenario.title, outcome, checks }, lost };
}

/**
 * Runs the conformance battery against the harness's webhooks, `concurrency` scenarios at a time,
 * reporting them in plan order. If the target process ends, the run stops: the report says how it
 * ended and during which scenario, and lists the scenarios not run.
 */
export async function runBattery(harness: Harness, options: BatteryOptions = {}): Promise<BatteryReport> {
  const { plan, skipped, namespaces, exclusions } = planBattery(harness.webhooks, harness.seed, harness.timeScale);
  for (const namespace of namespaces) harness.namespaces.set(namespace);
  const shard = options.shard;
  const mine = shard ? plan.filter((_, i) => i % shard.count === shard.index - 1) : plan;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const wanted = (id: CheckId | PolicyCheckId) => (!options.only || options.only.includes(id)) && !options.skip?.includes(id);
  const results: (ScenarioResult | undefined)[] = new Array<ScenarioResult | undefined>(mine.length);
  // Index of the first scenario not to report: where the target died, or just after the first failure (--fail-fast).
  let cut = mine.length;
  let aborted: BatteryAbort | undefined;
  let abortedAt = mine.length;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cut && next < mine.length) {
      const i = next++;
      const planned = mine[i] as PlannedScenario;
      options.onProgress?.(i, mine.length, `${planned.webhook} · ${planned.scenario.title}`);
      const { result, lost } = await runWatchedScenario(harness, planned, wanted);
      if (lost) {
        const exit = await harness.targetExit();
        if (exit) {
          if (i < abortedAt) {
            abortedAt = i;
            aborted = { webhook: planned.webhook, scenario: planned.scenario.title, exit };
          }
          cut = Math.min(cut, i);
          continue;
        }
      }
      results[i] = result;
      if (options.failFast && result.checks.some((c) => c.status === 'fail')) cut = Math.min(cut, i + 1);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, mine.length) }, worker));
  // Everything before the cut ran to the end (scenarios start in plan order); what ran after it is dropped,
  // so the report is the same whatever the timing.
  const kept = results.slice(0, cut).filter((r): r is ScenarioResult => r !== undefined);
  const notRun = mine.slice(cut).map((p) => ({ webhook: p.webhook, scenario: p.scenario.title }));
  // Policies run in-process and cannot die with the target: they run unless the run stopped early.
  const policyPlan = planPolicies([...harness.mutatingPolicies, ...harness.validatingPolicies], harness.seed);
  const policyMine = shard ? policyPlan.plan.filter((_, i) => i % shard.count === shard.index - 1) : policyPlan.plan;
  const policies: PolicyScenarioResult[] = [];
  const stopped = aborted !== undefined || (options.failFast === true && kept.some((r) => r.checks.some((c) => c.status === 'fail')));
  if (wanted('policy-evaluates')) {
    for (const planned of stopped ? [] : policyMine) {
      const result = await runPolicyScenario(harness, planned);
      policies.push(result);
      if (options.failFast && result.checks.some((c) => c.status === 'fail')) break;
    }
  }
  skipped.push(...policyPlan.skipped);
  for (const probe of stopped ? [] : shard ? exclusions.filter((_, i) => i % shard.count === shard.index - 1) : exclusions) {
    const reason = await runExclusion(harness, probe);
    if (reason) skipped.push({ webhook: probe.webhook, reason });
  }
  const all = [...kept.flatMap((r) => r.checks), ...policies.flatMap((r) => r.checks)];
  return {
    seed: harness.seed,
    results: kept,
    policies,
    skipped,
    passed: all.filter((c) => c.status === 'pass').length,
    failed: all.filter((c) => c.status === 'fail').length,
    ...(aborted ? { aborted } : {}),
    notRun,
  };
}
