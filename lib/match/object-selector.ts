import type { KubeObject } from '../kube/admission';
import { compileSelector, SelectorError } from '../kube/label-selector';
import type { MutatingWebhook } from '../kube/webhook-config';
import type { MatchAttributes } from './request';
import { internalError } from '../kube/status';
import type { SelectorVerdict } from './verdict';

// An object without metadata (e.g. NodeProxyOptions) has no labels to select on: it never matches.
function labelsOf(object: KubeObject | null): Readonly<Record<string, string>> | undefined {
  if (!object || typeof object.metadata !== 'object' || object.metadata === null) return undefined;
  return object.metadata.labels ?? {};
}

/**
 * objectSelector (apiserver `object.Matcher`, KUBE-FACTS §6.4): `{}` matches everything; otherwise
 * the object or the old object must match.
 */
export function matchObjectSelector(webhook: MutatingWebhook, attributes: Pick<MatchAttributes, 'object' | 'oldObject'>): SelectorVerdict {
  let selector;
  try {
    selector = compileSelector(webhook.objectSelector);
  } catch (error) {
    return { matches: false, why: `objectSelector is invalid: ${(error as SelectorError).message}`, error: internalError((error as Error).message) };
  }
  if (selector.everything) return { matches: true, why: 'objectSelector {} matches every object' };
  const candidates = [labelsOf(attributes.object), labelsOf(attributes.oldObject)];
  const matches = candidates.some((labels) => labels !== undefined && selector.matches(labels));
  return {
    matches,
    why: matches ? `objectSelector {${selector.text}} matched` : `objectSelector {${selector.text}} matched neither object nor oldObject`,
  };
}
