import type { MutatingWebhook } from '../kube/webhook-config';
import { isNamespaceResource } from '../kube/gvr';
import type { MatchAttributes } from './request';
import { notFound } from '../kube/status';
import { compiledOrVerdict, type SelectorVerdict } from './verdict';

/** Where the labels of stored namespaces come from (declared by the test, or the mock API's store). */
export interface NamespaceLookup {
  /** The namespace's labels, or undefined when it does not exist. */
  labels(name: string): Readonly<Record<string, string>> | undefined;
}

/**
 * namespaceSelector (apiserver `namespace.Matcher`, pkg/admission/plugin/webhook/predicates/namespace/matcher.go): cluster-scoped requests other
 * than namespaces always match; a namespace's own CREATE/UPDATE uses the new object's labels; anything
 * else the stored namespace's, and a missing namespace is the client's 404.
 */
export function matchNamespaceSelector(
  webhook: Pick<MutatingWebhook, 'namespaceSelector'>,
  attributes: MatchAttributes,
  namespaces: NamespaceLookup,
): SelectorVerdict {
  const namespaceRequest = isNamespaceResource(attributes.resource);
  if (attributes.namespace === '' && !namespaceRequest) return { matches: true, why: 'cluster-scoped request: namespaceSelector does not apply' };
  const compiled = compiledOrVerdict(webhook.namespaceSelector, 'namespaceSelector');
  if ('verdict' in compiled) return compiled.verdict;
  const { selector } = compiled;
  if (selector.everything) return { matches: true, why: 'namespaceSelector {} matches every namespace' };
  let labels: Readonly<Record<string, string>> | undefined;
  const ownObject = namespaceRequest && attributes.subResource === '' && (attributes.operation === 'CREATE' || attributes.operation === 'UPDATE');
  if (ownObject) labels = attributes.object?.metadata?.labels ?? {};
  else {
    labels = namespaces.labels(attributes.namespace);
    if (labels === undefined) {
      return {
        matches: false,
        why: `namespace ${JSON.stringify(attributes.namespace)} does not exist`,
        error: notFound({ group: '', resource: 'namespaces' }, attributes.namespace),
      };
    }
  }
  const matches = selector.matches(labels);
  const whose = ownObject ? 'the namespace object in the request' : `namespace ${JSON.stringify(attributes.namespace)}`;
  return { matches, why: `namespaceSelector {${selector.text}} ${matches ? 'matched' : 'did not match'} ${whose} (labels ${JSON.stringify(labels)})` };
}
