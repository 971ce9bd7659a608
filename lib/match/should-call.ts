import type { GroupVersionKind, GroupVersionResource, KubeObject, Status } from '../kube/admission';
import { internalError } from '../kube/status';
import type { MutatingWebhook } from '../kube/webhook-config';
import type { MatchConditionsVerdict } from '../cel/match-conditions';
import { matchNamespaceSelector, type NamespaceLookup } from './namespace-selector';
import { matchObjectSelector } from './object-selector';
import { formatGvr } from '../kube/gvr';
import type { MatchAttributes } from './request';
import { firstMatchingRule } from './rules';
import { joinApiVersion } from '../kube/api-version';
import { convertBuiltinObject } from '../kube/conversion';

/** The resource registry kube-apiserver consults for matchPolicy Equivalent. */
export interface EquivalentResourceMapper {
  /** Every resource with the same storage as `resource` (it included), in registry order. */
  equivalentResources(resource: GroupVersionResource, subResource: string): GroupVersionResource[];
  /** The kind `resource`/`subResource` carries, or undefined when unknown. */
  kindFor(resource: GroupVersionResource, subResource: string): GroupVersionKind | undefined;
}

/** How a matched webhook sees the request: the kind and resource its rules matched. */
export interface Invocation {
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  /** The request's object and oldObject, converted to the matched version. */
  object: KubeObject | null;
  oldObject: KubeObject | null;
}

export type { MatchConditionsVerdict } from '../cel/match-conditions';

/** Evaluates a webhook's matchConditions against the request as the webhook would see it. */
export type ConditionEvaluator = (webhook: MutatingWebhook, invocation: Invocation, attributes: MatchAttributes) => MatchConditionsVerdict;

export interface MatchContext {
  namespaces: NamespaceLookup;
  resources: EquivalentResourceMapper;
  /** Evaluates matchConditions on the converted request (only called when the webhook has some). */
  conditions?: ConditionEvaluator;
}

/** Whether a webhook is called, and why: each decision carries the sentence that explains it. */
export type MatchDecision = { call: true; invocation: Invocation; why: string[] } | { call: false; why: string[]; error?: Status };

/**
 * kube-apiserver's `ShouldCallHook` (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go), in its order: namespaceSelector, objectSelector,
 * rules with matchPolicy, then the selector errors deferred until the rules matched, then
 * matchConditions.
 */
export function shouldCallHook(webhook: MutatingWebhook, attributes: MatchAttributes, context: MatchContext): MatchDecision {
  const why: string[] = [];
  const namespace = matchNamespaceSelector(webhook, attributes, context.namespaces);
  why.push(namespace.why);
  if (!namespace.matches && !namespace.error) return { call: false, why };
  const object = matchObjectSelector(webhook, attributes);
  why.push(object.why);
  if (!object.matches && !object.error) return { call: false, why };

  const matched = matchRules(webhook, attributes, context.resources);
  if ('error' in matched) return { call: false, why: [...why, matched.why], error: matched.error };
  why.push(matched.why);
  if (!matched.invocation) return { call: false, why };
  if (namespace.error) return { call: false, why, error: namespace.error };
  if (object.error) return { call: false, why, error: object.error };

  if ((webhook.matchConditions ?? []).length > 0 && context.conditions) {
    const verdict = context.conditions(webhook, matched.invocation, attributes);
    why.push(verdict.why);
    if (verdict.error) return { call: false, why, error: verdict.error };
    if (!verdict.matches) return { call: false, why };
  }
  return { call: true, invocation: matched.invocation, why };
}

export type RuleVerdict = { invocation?: Invocation; why: string } | { error: Status; why: string };

/** Whether the webhook's rules match the request, directly or (matchPolicy Equivalent) through an equivalent resource. */
export function matchRules(webhook: MutatingWebhook, attributes: MatchAttributes, resources: EquivalentResourceMapper): RuleVerdict {
  const { operation, namespace, subResource } = attributes;
  const rules = webhook.rules ?? [];
  const exact = firstMatchingRule(rules, { operation, namespace, subResource, resource: attributes.resource });
  const requested = `${operation} ${formatResource(attributes.resource, subResource)}`;
  if (exact >= 0) {
    return {
      invocation: { kind: attributes.kind, resource: attributes.resource, subResource, object: attributes.object, oldObject: attributes.oldObject },
      why: `rules[${exact}] matched ${requested}`,
    };
  }
  if (webhook.matchPolicy !== 'Equivalent') return { why: `no rule matched ${requested} (matchPolicy ${webhook.matchPolicy ?? 'Exact'})` };

  const equivalents = resources.equivalentResources(attributes.resource, subResource).filter((gvr) => !sameGvr(gvr, attributes.resource));
  // Earlier rules win: each rule is tried against every equivalent before the next rule.
  for (const [index, rule] of rules.entries()) {
    for (const equivalent of equivalents) {
      if (firstMatchingRule([rule], { operation, namespace, subResource, resource: equivalent }) < 0) continue;
      const kind = resources.kindFor(equivalent, subResource);
      if (!kind)
        return {
          error: internalError(`unable to convert to ${formatGvr(equivalent)}: unknown kind`),
          why: `rules[${index}] matched the equivalent ${formatResource(equivalent, subResource)}, whose kind is unknown`,
        };
      return {
        invocation: {
          kind,
          resource: equivalent,
          subResource,
          object: convertToKind(attributes.object, kind),
          oldObject: convertToKind(attributes.oldObject, kind),
        },
        why: `rules[${index}] matched ${requested} through its equivalent ${formatResource(equivalent, subResource)} (matchPolicy Equivalent): sent as ${formatKind(kind)}`,
      };
    }
  }
  return { why: `no rule matched ${requested} or any equivalent resource` };
}

function sameGvr(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

/** `apps/v1 deployments/scale`, as explanations name a resource. */
export function formatResource(gvr: GroupVersionResource, subResource: string): string {
  const group = gvr.group ? `${gvr.group}/` : '';
  return `${group}${gvr.version} ${gvr.resource}${subResource ? `/${subResource}` : ''}`;
}

/** `autoscaling/v1 Scale`, as explanations name a kind. */
export function formatKind(kind: GroupVersionKind): string {
  return `${kind.group ? `${kind.group}/` : ''}${kind.version} ${kind.kind}`;
}

/**
 * `object` at `kind`'s version, as the matching step hands it to a webhook matched at another version:
 * a built-in kind kube-apiserver converts with functions of its own (an HPA between autoscaling/v2 and
 * v1) is converted by them (lib/kube/conversion); any other object is relabelled, which is what
 * conversion does for a CRD with `conversion: None` and for versions with equal schemas. A CRD that
 * converts through a webhook is converted later, by the dispatcher (lib/dispatch/versioned.ts).
 */
export function convertToKind(object: KubeObject | null, kind: GroupVersionKind): KubeObject | null {
  if (!object) return null;
  const converted = convertBuiltinObject(object, kind);
  if (converted) return converted;
  return { ...object, apiVersion: joinApiVersion(kind), kind: kind.kind };
}
