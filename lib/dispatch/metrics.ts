/** The admission metrics kube-apiserver exports (k8s.io/apiserver/pkg/admission/metrics/metrics.go). */

type Labels = Record<string, string>;

interface Family {
  help: string;
  type: 'counter' | 'histogram';
  buckets?: readonly number[];
  series: Map<string, { labels: Labels; value: number; counts?: number[]; sum?: number }>;
}

const WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];
const STEP_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
const MATCH_CONDITION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25];
// apiserver plugin/policy/validating/metrics: from a CEL expression's ~180 ns to one near the cost limit.
const POLICY_BUCKETS = [0.0000005, 0.001, 0.01, 0.1, 1.0];

export type WebhookType = 'admit' | 'validating';
export type RejectionErrorType = 'calling_webhook_error' | 'no_error' | 'apiserver_internal_error';

// client_golang writes label pairs sorted by name: the exposition's form of a series, made when printed.
function key(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
}

// Which series an observation belongs to, told apart by its labels' names and values as given. Every
// webhook call records two series, so this is kept to a concatenation: sorting and quoting wait for
// `toString`.
function seriesId(labels: Labels): string {
  let id = '';
  for (const name in labels) id += `${name}\u0000${labels[name]}\u0001`;
  return id;
}

/** A Prometheus registry holding the admission metrics of one harness, across its requests. */
export class AdmissionMetrics {
  private readonly families = new Map<string, Family>([
    [
      'apiserver_admission_webhook_admission_duration_seconds',
      {
        help: '[STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
        type: 'histogram',
        buckets: WEBHOOK_BUCKETS,
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_webhook_request_total',
      {
        help: '[ALPHA] Admission webhook request total, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
        type: 'counter',
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_webhook_rejection_count',
      {
        help: '[ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
        type: 'counter',
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_webhook_fail_open_count',
      {
        help: '[ALPHA] Admission webhook fail open count, identified by name and broken out for each admission type (validating or admit).',
        type: 'counter',
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_match_condition_evaluation_errors_total',
      {
        help: '[ALPHA] Admission match condition evaluation errors count, identified by name of resource containing the match condition and broken out for each kind containing matchConditions (webhook or policy), operation and admission type (validate or admit).',
        type: 'counter',
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_match_condition_exclusions_total',
      {
        help: '[ALPHA] Admission match condition evaluation exclusions count, identified by name of resource containing the match condition and broken out for each kind containing matchConditions (webhook or policy), operation and admission type (validate or admit).',
        type: 'counter',
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_match_condition_evaluation_seconds',
      {
        help: '[ALPHA] Admission match condition evaluation time in seconds, identified by name and broken out for each kind containing matchConditions (webhook or policy), operation and type (validate or admit).',
        type: 'histogram',
        buckets: MATCH_CONDITION_BUCKETS,
        series: new Map(),
      },
    ],
    [
      'apiserver_validating_admission_policy_check_total',
      {
        help: '[BETA] Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken.',
        type: 'counter',
        series: new Map(),
      },
    ],
    [
      'apiserver_validating_admission_policy_check_duration_seconds',
      {
        help: '[BETA] Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken.',
        type: 'histogram',
        buckets: POLICY_BUCKETS,
        series: new Map(),
      },
    ],
    [
      'apiserver_mutating_admission_policy_check_total',
      { help: '[ALPHA] Mutation admission policy check total, labeled by policy and further identified by binding.', type: 'counter', series: new Map() },
    ],
    [
      'apiserver_mutating_admission_policy_check_duration_seconds',
      {
        help: '[ALPHA] Mutation admission latency for individual mutation expressions in seconds, labeled by policy and binding.',
        type: 'histogram',
        buckets: POLICY_BUCKETS,
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_step_admission_duration_seconds',
      {
        help: '[STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
        type: 'histogram',
        buckets: STEP_BUCKETS,
        series: new Map(),
      },
    ],
    [
      'apiserver_admission_controller_admission_duration_seconds',
      {
        help: '[STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
        type: 'histogram',
        buckets: STEP_BUCKETS,
        series: new Map(),
      },
    ],
  ]);

  private add(name: string, labels: Labels, amount = 1): void {
    const family = this.families.get(name) as Family;
    const id = seriesId(labels);
    let series = family.series.get(id);
    if (!series) family.series.set(id, (series = { labels, value: 0 }));
    series.value += amount;
  }

  private observe(name: string, labels: Labels, seconds: number): void {
    const family = this.families.get(name) as Family;
    const buckets = family.buckets as readonly number[];
    const id = seriesId(labels);
    let series = family.series.get(id);
    if (!series) family.series.set(id, (series = { labels, value: 0, counts: buckets.map(() => 0), sum: 0 }));
    const counts = series.counts as number[];
    for (let i = 0; i < buckets.length; i++) if (seconds <= buckets[i]!) counts[i]! += 1;
    series.value += 1;
    series.sum = (series.sum ?? 0) + seconds;
  }

  /** Every webhook call: `ObserveWebhook` (codes above 600 are recorded as 600). */
  webhookCall(name: string, type: WebhookType, operation: string, seconds: number, rejected: boolean, code: number): void {
    this.observe('apiserver_admission_webhook_admission_duration_seconds', { name, type, operation, rejected: String(rejected) }, seconds);
    this.add('apiserver_admission_webhook_request_total', { name, type, operation, code: String(Math.min(code, 600)), rejected: String(rejected) });
  }

  /** `ObserveWebhookRejection`. */
  webhookRejection(name: string, type: WebhookType, operation: string, errorType: RejectionErrorType, code: number): void {
    this.add('apiserver_admission_webhook_rejection_count', { name, type, operation, error_type: errorType, rejection_code: String(Math.min(code, 600)) });
  }

  webhookFailOpen(name: string, type: WebhookType): void {
    this.add('apiserver_admission_webhook_fail_open_count', { name, type });
  }

  matchConditionError(name: string, type: WebhookType, operation: string): void {
    this.add('apiserver_admission_match_condition_evaluation_errors_total', { name, kind: 'webhook', type, operation });
  }

  matchConditionExclusion(name: string, type: WebhookType, operation: string): void {
    this.add('apiserver_admission_match_condition_exclusions_total', { name, kind: 'webhook', type, operation });
  }

  matchConditionLatency(name: string, type: WebhookType, operation: string, seconds: number): void {
    this.observe('apiserver_admission_match_condition_evaluation_seconds', { name, kind: 'webhook', type, operation }, seconds);
  }

  /**
   * One ValidatingAdmissionPolicy outcome (policy/validating/metrics `ObserveAdmission`, `ObserveRejection`,
   * `ObserveAudit`, `ObserveWarn`): a denied, audited or warned validation, or one admitted despite an error.
   */
  policyCheck(policy: string, binding: string, action: 'allow' | 'deny' | 'audit' | 'warn', evaluationError: boolean, seconds: number): void {
    const labels = { policy, policy_binding: binding, error_type: evaluationError ? 'invalid_error' : 'no_error', enforcement_action: action };
    this.add('apiserver_validating_admission_policy_check_total', labels);
    this.observe('apiserver_validating_admission_policy_check_duration_seconds', labels, seconds);
  }

  /** One MutatingAdmissionPolicy mutation (policy/mutating/metrics `ObserveAdmission`, `ObserveRejection`). */
  mutatingPolicyCheck(policy: string, binding: string, errorType: 'no_error' | 'invalid_error', seconds: number): void {
    const labels = { policy, policy_binding: binding, error_type: errorType };
    this.add('apiserver_mutating_admission_policy_check_total', labels);
    this.observe('apiserver_mutating_admission_policy_check_duration_seconds', labels, seconds);
  }

  /** One admission step (type admit or validate) and its plugin, for the whole request. */
  step(type: 'admit' | 'validate', operation: string, seconds: number, rejected: boolean): void {
    const plugin = type === 'admit' ? 'MutatingAdmissionWebhook' : 'ValidatingAdmissionWebhook';
    this.observe('apiserver_admission_step_admission_duration_seconds', { type, operation, rejected: String(rejected) }, seconds);
    this.observe('apiserver_admission_controller_admission_duration_seconds', { name: plugin, type, operation, rejected: String(rejected) }, seconds);
  }

  /** The Prometheus text exposition of every metric with at least one series. */
  toString(): string {
    const lines: string[] = [];
    for (const [name, family] of this.families) {
      if (family.series.size === 0) continue;
      lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`);
      const series = [...family.series.values()].map((s) => [key(s.labels), s] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [labelKey, s] of series) {
        if (family.type === 'counter') {
          lines.push(`${name}{${labelKey}} ${s.value}`);
          continue;
        }
        const buckets = family.buckets as readonly number[];
        buckets.forEach((bound, i) => lines.push(`${name}_bucket{${labelKey},le=${JSON.stringify(String(bound))}} ${(s.counts as number[])[i]}`));
        lines.push(`${name}_bucket{${labelKey},le="+Inf"} ${s.value}`, `${name}_sum{${labelKey}} ${s.sum ?? 0}`, `${name}_count{${labelKey}} ${s.value}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
