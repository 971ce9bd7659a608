import type { Authorizer } from '../authz/authorizer';
import { compileMatchConditions, loadCel, type CompiledConditions } from '../cel';
import type { WebhookEntry } from '../config/load';
import type { AdmissionRequest } from '../kube/admission';
import type { MutatingWebhook } from '../kube/webhook-config';
import { type Refusal, refusedError } from '../config/refusal';
import { encodeReview } from '../review/encode';
import type { MatchAttributes } from './request';
import type { ConditionEvaluator, Invocation, MatchConditionsVerdict } from './should-call';

/** Where an evaluator reports each evaluation (the match condition metrics). */
export interface ConditionObserver {
  evaluated(entry: WebhookEntry, operation: string, seconds: number, verdict: MatchConditionsVerdict): void;
}

/** The AdmissionRequest the matched webhook would receive (matchConditions' `request` variable). */
function requestOf(invocation: Invocation, attributes: MatchAttributes): AdmissionRequest {
  const complete = { ...attributes, userInfo: attributes.userInfo ?? {}, dryRun: attributes.dryRun ?? false, options: attributes.options ?? null };
  return encodeReview(complete, 'v1', '', invocation).request as AdmissionRequest;
}

type CompiledWebhooks = Map<MutatingWebhook, { entry: WebhookEntry; conditions: CompiledConditions }>;

/** Each webhook's matchConditions compiled as the API server validates them on create, and the configurations it would refuse. */
async function compileWebhookConditions(entries: readonly WebhookEntry[]): Promise<{ compiled: CompiledWebhooks; refusals: Refusal[] }> {
  const compiled: CompiledWebhooks = new Map();
  const refusals: Refusal[] = [];
  const withConditions = entries.filter((e) => (e.spec.matchConditions ?? []).length > 0);
  if (withConditions.length > 0) await loadCel();
  for (const entry of withConditions) {
    const result = compileMatchConditions(entry.spec.matchConditions ?? [], `webhooks[${entry.index}].matchConditions`);
    if ('errors' in result)
      refusals.push({
        kind: entry.type === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
        name: entry.configuration,
        where: entry.source,
        webhook: entry.spec.name,
        errors: result.errors,
      });
    else compiled.set(entry.spec, { entry, conditions: result });
  }
  return { compiled, refusals };
}

/**
 * The webhook configurations the API server would refuse on create for their matchConditions (an
 * expression that does not compile, a name kube refuses), one refusal per webhook, with kube's texts.
 */
export async function matchConditionRefusals(entries: readonly WebhookEntry[]): Promise<Refusal[]> {
  return (await compileWebhookConditions(entries)).refusals;
}

/**
 * Compiles every webhook's matchConditions as the API server validates them on create (an invalid
 * expression is a manifest error naming the webhook and condition), loading the CEL library only when
 * some webhook has conditions. Returns undefined when none has.
 */
export async function prepareMatchConditions(
  entries: readonly WebhookEntry[],
  options: { authorizer?: Authorizer; observer?: ConditionObserver } = {},
): Promise<ConditionEvaluator | undefined> {
  if (!entries.some((e) => (e.spec.matchConditions ?? []).length > 0)) return undefined;
  const { compiled, refusals } = await compileWebhookConditions(entries);
  if (refusals.length > 0) throw refusedError(refusals);
  return (webhook, invocation, attributes) => {
    const found = compiled.get(webhook);
    if (!found) throw new Error(`matchConditions of ${webhook.name} were not compiled`);
    const started = performance.now();
    const verdict = found.conditions.evaluate(
      {
        object: invocation.object,
        oldObject: invocation.oldObject,
        request: requestOf(invocation, attributes),
        ...(options.authorizer ? { authorizer: options.authorizer } : {}),
      },
      webhook.failurePolicy,
      { resource: attributes.resource, name: attributes.name },
    );
    options.observer?.evaluated(found.entry, attributes.operation, (performance.now() - started) / 1000, verdict);
    return verdict;
  };
}
