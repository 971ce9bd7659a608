import type { WebhookEntry } from '../config/load';
import { compileSelector } from '../kube/label-selector';
import type { RuleWithOperations } from '../kube/webhook-config';
import { ruleMatches, type RuleSubject } from '../match/rules';
import { namespaceLabels } from '../kube/namespaces';

export type Severity = 'error' | 'warning' | 'info';

/** One finding: a stable id, how bad it is, and what to change. */
export interface Finding {
  id: string;
  severity: Severity;
  configuration: string;
  webhook: string;
  message: string;
  fix: string;
}

export interface LintRule {
  id: string;
  severity: Severity;
  /** A message and a fix when the webhook breaks the rule. */
  check(entry: WebhookEntry): { message: string; fix: string } | undefined;
}

const anyRuleMatches = (rules: readonly RuleWithOperations[] | undefined, subject: RuleSubject) => (rules ?? []).some((r) => ruleMatches(r, subject));
const podCreateIn = (namespace: string): RuleSubject => ({
  operation: 'CREATE',
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
  namespace,
});

function selectsNamespace(entry: WebhookEntry, namespace: string): boolean {
  try {
    return compileSelector(entry.spec.namespaceSelector).matches(namespaceLabels(namespace));
  } catch {
    return false;
  }
}

const STABLE_VERSION = /^v\d+$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Checks from the Kubernetes documentation's "Admission webhook good practices" and the API
 * reference's warnings, each with a stable id.
 */
export const LINT_RULES: readonly LintRule[] = [
  {
    id: 'match-policy-exact',
    severity: 'warning',
    check: ({ spec }) =>
      spec.matchPolicy === 'Exact'
        ? {
            message: 'matchPolicy Exact: requests through other versions of the same resources (e.g. a new API version) bypass this webhook',
            fix: 'set matchPolicy: Equivalent (the v1 default)',
          }
        : undefined,
  },
  {
    id: 'kube-system-not-excluded',
    severity: 'warning',
    check: (entry) =>
      anyRuleMatches(entry.spec.rules, podCreateIn('kube-system')) && selectsNamespace(entry, 'kube-system')
        ? {
            message: 'the webhook intercepts requests in kube-system, where an outage can stop the control plane from healing',
            fix: 'exclude it: namespaceSelector.matchExpressions [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]',
          }
        : undefined,
  },
  {
    id: 'own-namespace-not-excluded',
    severity: 'error',
    check: (entry) => {
      const service = entry.spec.clientConfig.service;
      if (!service || entry.spec.failurePolicy !== 'Fail') return undefined;
      return anyRuleMatches(entry.spec.rules, podCreateIn(service.namespace)) && selectsNamespace(entry, service.namespace)
        ? {
            message: `the webhook intercepts pod creation in its own namespace ${JSON.stringify(service.namespace)} and fails closed: if it is down, it can never be started again (deadlock)`,
            fix: `exclude namespace ${service.namespace} with the namespaceSelector, or use an objectSelector that skips the webhook's own pods`,
          }
        : undefined;
    },
  },
  {
    id: 'side-effects',
    severity: 'warning',
    check: ({ spec }) =>
      spec.sideEffects !== 'None'
        ? {
            message: `sideEffects ${spec.sideEffects ?? '(unset)'}: dryRun requests ${spec.sideEffects === 'NoneOnDryRun' ? 'depend on the webhook honouring request.dryRun' : 'are rejected before reaching this webhook'}`,
            fix: 'avoid side effects in admission; if unavoidable, skip them when request.dryRun is true and declare NoneOnDryRun',
          }
        : undefined,
  },
  {
    id: 'timeout-long',
    severity: 'warning',
    check: ({ spec }) =>
      (spec.timeoutSeconds ?? 10) > 5
        ? {
            message: `timeoutSeconds ${spec.timeoutSeconds ?? 10}: every request to the matched resources may wait this long for the webhook`,
            fix: 'answer within a few seconds and set timeoutSeconds to match (e.g. 2-5)',
          }
        : undefined,
  },
  {
    id: 'fail-open-on-policy',
    severity: 'warning',
    check: ({ type, spec }) =>
      type === 'validating' && spec.failurePolicy === 'Ignore'
        ? {
            message: 'a validating webhook with failurePolicy Ignore lets every request through while it is down: the policy it enforces silently lapses',
            fix: 'use failurePolicy: Fail for policy enforcement, with enough replicas and a short timeout',
          }
        : undefined,
  },
  {
    id: 'connect-exec-registered',
    severity: 'warning',
    check: ({ spec }) => {
      const hits = ['exec', 'attach'].filter((sub) =>
        anyRuleMatches(spec.rules, { operation: 'CONNECT', resource: { group: '', version: 'v1', resource: 'pods' }, subResource: sub, namespace: 'default' }),
      );
      return hits.length > 0
        ? {
            message: `the rules send CONNECT for pods/${hits.join(' and pods/')}: a failing webhook breaks kubectl ${hits.join(' and kubectl ')}`,
            fix: 'list only the operations and subresources the webhook needs (CONNECT only if it audits exec/attach on purpose)',
          }
        : undefined;
    },
  },
  {
    id: 'wildcard-fail-closed',
    severity: 'warning',
    check: ({ spec }) => {
      const wildcard = (spec.rules ?? []).some(
        (r) => (r.resources ?? []).includes('*/*') || ((r.resources ?? []).includes('*') && (r.apiGroups ?? []).includes('*')),
      );
      return wildcard && spec.failurePolicy === 'Fail'
        ? {
            message: 'rules match every resource and the webhook fails closed: while it is down, nothing in the cluster can be changed',
            fix: 'narrow the rules to the resources the webhook handles',
          }
        : undefined;
    },
  },
  {
    id: 'reinvocation-needs-idempotence',
    severity: 'info',
    check: ({ type, spec }) =>
      type === 'mutating' && spec.reinvocationPolicy === 'IfNeeded'
        ? {
            message: 'reinvocationPolicy IfNeeded: the webhook may see its own output again',
            fix: 'make the mutation idempotent (check with the idempotence matchers and the check command)',
          }
        : undefined,
  },
  {
    id: 'unstable-version',
    severity: 'warning',
    check: ({ spec }) => {
      const versions = (spec.rules ?? []).flatMap((r) => r.apiVersions ?? []);
      return versions.length > 0 && versions.every((v) => v !== '*' && !STABLE_VERSION.test(v))
        ? {
            message: `the rules name only pre-release versions (${[...new Set(versions)].join(', ')}), which are removed in later releases`,
            fix: 'match the stable version, or use "*" with matchPolicy Equivalent',
          }
        : undefined;
    },
  },
  {
    id: 'url-localhost',
    severity: 'warning',
    check: ({ spec }) => {
      const url = spec.clientConfig.url;
      if (!url) return undefined;
      let host = '';
      try {
        host = new URL(url).hostname;
      } catch {
        return undefined;
      }
      return LOOPBACK_HOSTS.has(host)
        ? {
            message: `clientConfig.url ${url} points at the API server's own host: it only works where the webhook runs beside kube-apiserver`,
            fix: 'use clientConfig.service for in-cluster webhooks',
          }
        : undefined;
    },
  },
];

/** Every finding for the webhooks, in configuration and rule order. */
export function lint(entries: readonly WebhookEntry[]): Finding[] {
  return entries.flatMap((entry) =>
    LINT_RULES.flatMap((rule) => {
      const hit = rule.check(entry);
      return hit ? [{ id: rule.id, severity: rule.severity, configuration: entry.configuration, webhook: entry.spec.name, ...hit }] : [];
    }),
  );
}
