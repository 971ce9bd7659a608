import type { KubeObject } from '../kube/admission';
import type { MutatingWebhook } from '../kube/webhook-config';
import type { MatchAttributes } from './request';
import { compiledOrVerdict, type SelectorVerdict } from './verdict';

// An object without metadata (e.g. NodeProxyOptions) has no labels to select on: it never matches.
function labelsOf(object: KubeObject | null): Readonly<Record<string, string>> | undefined {
  if (!object || typeof object.metadata !== 'object' || object.metadata === null) return undefined;
  return object.metadata.labels ?? {};
}

/**
 * objectSelector (apiserver `object.Matcher`, pkg/admission/plugin/webhook/predicates/object/matcher.go): `{}` matches everything; otherwise
 * the object or the old object must match.
 */
export function matchObjectSelector(
  webhook: Pick<MutatingWebhook, 'objectSelector'>,
  attributes: Pick<MatchAttributes, 'object' | 'oldObject'>,
): SelectorVerdict {
  const compiled = compiledOrVerdict(webhook.objectSelector, 'objectSelector');
  if ('verdict' in compiled) return compiled.verdict;
  const { selector } = compiled;
  if (selector.everything) return { matches: true, why: 'objectSelector {} matches every object' };
  const candidates = [labelsOf(attributes.object), labelsOf(attributes.oldObject)];
  const matches = candidates.some((labels) => labels !== undefined && selector.matches(labels));
  return {
    matches,
    why: matches ? `objectSelector {${selector.text}} matched` : `objectSelector {${selector.text}} matched neither object nor oldObject`,
  };
}
