import { compileMatchConditions, type CompiledConditions, type MatchConditionsInput } from '../../lib/cel';
import { parseAndCheck } from '../../lib/cel/compile';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { evaluateProgram } from '../../lib/cel/evaluate';
import type { AdmissionRequest, KubeObject, Operation } from '../../lib/kube/admission';
import type { FailurePolicy, MatchCondition } from '../../lib/kube/webhook-config';

export const pod = (name: string, namespace: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels: { app: 'web', env: 'prod' } },
  spec: {
    replicas: 3,
    ratio: 0.75,
    containers: [
      { name: 'app', image: 'registry.local/app:1' },
      { name: 'sidecar', image: 'registry.local/proxy:2' },
    ],
  },
  ...extra,
});

/** A v1 AdmissionRequest for a pod, as the harness hands it to the webhook. */
export function podRequest(
  operation: Operation,
  object: KubeObject | null,
  oldObject: KubeObject | null = null,
  overrides: Partial<AdmissionRequest> = {},
): AdmissionRequest {
  const metadata = (object ?? oldObject)?.metadata;
  return {
    uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    requestKind: { group: '', version: 'v1', kind: 'Pod' },
    requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: metadata?.name ?? '',
    namespace: metadata?.namespace ?? '',
    operation,
    userInfo: { username: 'system:admin', uid: 'u-1', groups: ['system:masters', 'system:authenticated'] },
    object,
    oldObject,
    dryRun: false,
    options: { apiVersion: 'meta.k8s.io/v1', kind: `${operation[0]}${operation.slice(1).toLowerCase()}Options` },
    ...overrides,
  };
}

export const createPod = (object: KubeObject = pod('web-1', 'default')): MatchConditionsInput => ({
  object,
  oldObject: null,
  request: podRequest('CREATE', object),
});

export const podTarget = (name = 'web-1') => ({ resource: { group: '', resource: 'pods' }, name });

export function compiled(conditions: MatchCondition[]): CompiledConditions {
  const result = compileMatchConditions(conditions);
  if ('errors' in result) throw new Error(`unexpected compile errors:\n${result.errors.join('\n')}`);
  return result;
}

/** Evaluates one expression as a webhook's only matchCondition. */
export function evaluateOne(expression: string, input: MatchConditionsInput = createPod(), failurePolicy: FailurePolicy = 'Fail') {
  return compiled([{ name: 'only', expression }]).evaluate(input, failurePolicy, podTarget(input.request.name));
}

/** The CEL error of one expression, as the 403 message carries it after `resulted in error: `. */
export function errorOf(expression: string, input: MatchConditionsInput = createPod()): string | undefined {
  const message = evaluateOne(expression, input).error?.message;
  return message?.split(' resulted in error: ')[1];
}

/** Compiles an expression in the matchConditions environment and runs it: its value, or `{ error }` in cel-go's words. */
export function valueOf(expression: string, activation: Record<string, unknown> = {}): unknown {
  const checked = parseAndCheck(expression, matchConditionsEnvironment());
  if ('issue' in checked) throw new Error(checked.issue);
  const evaluation = evaluateProgram(checked.program, activation);
  return 'error' in evaluation ? { error: evaluation.error } : evaluation.value;
}

/** The compile issue of an expression in the matchConditions environment, or undefined when it compiles. */
export function issueOf(expression: string): string | undefined {
  const checked = parseAndCheck(expression, matchConditionsEnvironment());
  return 'issue' in checked ? checked.issue : undefined;
}
