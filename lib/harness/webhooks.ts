// One webhook, one review: how the harness reaches a webhook of the manifests (or one given inline), with
// kube-apiserver's credentials and deadline, for h.call, h.webhook and every call of h.admit.
import { emptyOutcome, negotiateVersion, type CallableWebhook, type CallContext } from '../call/call-webhook';
import { invokeWebhook } from '../call/invoke';
import { findWebhook } from '../config/find';
import type { WebhookEntry } from '../config/load';
import { HarnessError } from '../errors';
import { atRequestVersion, matchedInvocation, type MatchedVersion } from '../dispatch/versioned';
import { convertToKind } from '../match/should-call';
import type { Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { admissionSummary } from '../mockapi/write-log';
import { encodeReview, type InvocationView } from '../review/encode';
import type { Review } from '../review/review';
import { admissionConverter } from './admission-conversion';
import type { HarnessCore } from './core';
import type { HarnessCoverage } from './coverage';
import type { CredentialsOf } from './credentials';
import { type BackToRequest, patchedOutcome } from './patched';
import type { Harness, HarnessCallOutcome, InlineWebhook } from './types';
import { unmatchedCallWarnings } from './unmatched-call';

/** Sends one webhook one request as kube-apiserver does: a fresh uid, its credentials, its deadline. */
export type Invoke = (
  callable: CallableWebhook,
  attributes: AdmissionAttributes,
  invocation: InvocationView | undefined,
  requestDeadlineMs?: number,
) => Promise<HarnessCallOutcome>;

/** The call-relevant fields of a loaded (defaulted) webhook. */
export function callableOf(entry: WebhookEntry): CallableWebhook {
  return {
    name: entry.spec.name,
    type: entry.type,
    configuration: entry.configuration,
    clientConfig: entry.spec.clientConfig,
    timeoutSeconds: entry.spec.timeoutSeconds ?? 10,
    admissionReviewVersions: entry.spec.admissionReviewVersions ?? [],
  };
}

/** Every call runs inside `api.during`, so the webhook's API writes are attributed to its request. */
export function invoker(core: HarnessCore, credentialsOf: CredentialsOf): Invoke {
  const { random, targets, agents, timeScale, seed } = core;
  const api = core.cluster.api;
  return async (callable, attributes, invocation, requestDeadlineMs) => {
    const uid = random.uuid();
    const { route, ca } = await targets.connection(callable);
    const { bearerToken, clientCertificate } = credentialsOf(callable);
    const context: CallContext = { route, ca, agents, timeScale, bearerToken, clientCertificate, requestDeadlineMs };
    const run = () => invokeWebhook(callable, attributes, invocation, uid, context);
    // The outcome is the call's own fresh object: completed in place rather than copied.
    const outcome = (api ? await api.during(admissionSummary(attributes, { uid, seed }), run) : await run()) as HarnessCallOutcome;
    outcome.seed = seed;
    if (api) outcome.writes = api.writes.of(uid);
    return outcome;
  };
}

/** Whether `matched` is the request's own kind and resource: then there is nothing to convert, and the review is sent as it is. */
const isRequested = (matched: MatchedVersion, { kind, resource }: AdmissionAttributes): boolean =>
  matched.kind.group === kind.group &&
  matched.kind.version === kind.version &&
  matched.kind.kind === kind.kind &&
  matched.resource.group === resource.group &&
  matched.resource.version === resource.version &&
  matched.resource.resource === resource.resource;

/**
 * h.call's `matched` as given from JavaScript, checked: a usage error naming the member, not a TypeError deep in
 * the conversion. A missing group is the core group's '' (as a recorded request's kind omits it).
 */
function checkedMatched(matched: MatchedVersion): MatchedVersion {
  const triple = (member: 'kind' | 'resource') => {
    const value: unknown = matched?.[member];
    const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const { group = '', version, [member]: name } = record;
    if (typeof group !== 'string' || typeof version !== 'string' || typeof name !== 'string')
      throw new HarnessError(
        'USAGE',
        `h.call's matched.${member} must be a {group, version, ${member}} of strings, got ${JSON.stringify(value) ?? 'undefined'}`,
        "give the kind and resource the webhook's rules matched, e.g. { kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' }, resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' } }",
      );
    return { group, version, name };
  };
  const kind = triple('kind');
  const resource = triple('resource');
  return {
    kind: { group: kind.group, version: kind.version, kind: kind.name },
    resource: { group: resource.group, version: resource.version, resource: resource.name },
  };
}

/** The outcome of a call kube-apiserver never makes: the object's conversion to the matched version failed. */
function refusedOutcome(callable: CallableWebhook, attributes: AdmissionAttributes, ids: { uid: string; seed: number }, rejection: Status): HarnessCallOutcome {
  const review = encodeReview(attributes, negotiateVersion(callable.admissionReviewVersions) ?? 'v1', ids.uid);
  return { ...emptyOutcome(callable, review), seed: ids.seed, rejection };
}

/** `h.stub`, `h.call` and `h.webhook`: one webhook, one review, the raw outcome. */
export function webhookCalls(
  core: HarnessCore,
  invoke: Invoke,
  coverage: HarnessCoverage,
  convert?: Harness['convert'],
): Pick<Harness, 'stub' | 'call' | 'webhook'> {
  const { webhooks, registry, random, timeScale, targets, lifecycle, seed } = core;
  const converting = { convertObject: admissionConverter(core.catalog, convert) };
  // An inline webhook object resolves to the same callable every time, so its endpoint is resolved once.
  const inlineCallables = new WeakMap<InlineWebhook, CallableWebhook>();
  const resolve = (webhook: string | InlineWebhook): CallableWebhook => {
    if (typeof webhook !== 'string') {
      const known = inlineCallables.get(webhook);
      if (known) return known;
      const name = webhook.name ?? `${webhook.type}.harness.local`;
      const callable: CallableWebhook = {
        name,
        type: webhook.type,
        clientConfig: { url: `https://localhost${webhook.path ?? '/'}` },
        timeoutSeconds: webhook.timeoutSeconds ?? 10,
        admissionReviewVersions: webhook.admissionReviewVersions ?? ['v1'],
      };
      inlineCallables.set(webhook, callable);
      return callable;
    }
    return callableOf(findWebhook(webhooks, webhook));
  };
  const callResolved = async (callable: CallableWebhook, review: Review, matched?: MatchedVersion): Promise<HarnessCallOutcome> => {
    lifecycle.assertOpen();
    const attributes = review.attributes;
    const view = matched && !isRequested(matched, attributes) ? await matchedInvocation(matched, attributes, converting) : undefined;
    if (view && 'rejection' in view) return refusedOutcome(callable, attributes, { uid: random.uuid(), seed }, view.rejection);
    const outcome = await invoke(callable, attributes, view?.invocation);
    if (callable.type === 'mutating' && outcome.patch && outcome.patch.length > 0) {
      await registry.ready();
      const invocation = view?.invocation;
      // Back to the request's version as the dispatchers take it (a CRD's conversion webhook, kube's HPA conversion).
      const back: BackToRequest | undefined =
        invocation && (async (patched) => atRequestVersion(patched, convertToKind(patched, attributes.kind) ?? patched, invocation, attributes, converting));
      const patched = await patchedOutcome(registry, outcome, review.attributes, random, back);
      if (patched) outcome.patched = patched;
    }
    return outcome;
  };
  const warnIfUnmatched = unmatchedCallWarnings(core);
  return {
    stub(name) {
      const server = targets.stub(name);
      if (!server)
        throw new HarnessError(
          'WEBHOOK_NOT_FOUND',
          `${JSON.stringify(name)} is not stubbed`,
          'declare it in createHarness({ stubs: { [name]: stub.allow() } })',
        );
      return server;
    },
    call: async (webhook, review, callOptions = {}) => {
      const callable = resolve(webhook);
      // Checked before the call is counted or warned about: a usage error makes no call.
      const matched = callOptions.matched && checkedMatched(callOptions.matched);
      if (typeof webhook === 'string') {
        warnIfUnmatched(webhook, review);
        coverage.call(findWebhook(webhooks, webhook), review.attributes);
      }
      const { version } = callOptions;
      if (!version) return callResolved(callable, review, matched);
      if (!callable.admissionReviewVersions.includes(version)) {
        throw new HarnessError(
          'USAGE',
          `${callable.name} does not accept AdmissionReview ${version}; its admissionReviewVersions are ${JSON.stringify(callable.admissionReviewVersions)}`,
        );
      }
      return callResolved({ ...callable, admissionReviewVersions: [version] }, review, matched);
    },
    webhook(webhook) {
      const callable = resolve(webhook);
      return {
        name: callable.name,
        type: callable.type,
        timeoutSeconds: callable.timeoutSeconds,
        timeScale,
        registry,
        call: (review) => callResolved(callable, review),
      };
    },
  };
}
