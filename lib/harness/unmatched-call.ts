import { findWebhook } from '../config/find';
import { matchNamespaceSelector } from '../match/namespace-selector';
import { matchRules } from '../match/should-call';
import type { Review } from '../review/review';
import type { HarnessCore } from './core';

/**
 * h.call() sends whatever it is given; kube-apiserver sends a webhook only what its rules match. Said
 * once per webhook and kind of request, as a process warning (Jest and Vitest print them).
 */
export function unmatchedCallWarnings({ webhooks, catalog, cluster }: HarnessCore): (reference: string, review: Review) => void {
  const warned = new Set<string>();
  return (reference, review) => {
    const entry = findWebhook(webhooks, reference);
    const verdict = matchRules(entry.spec, review.attributes, catalog);
    if ('error' in verdict) return;
    // Matching rules are not enough: nor is a request sent from an existing namespace the namespaceSelector
    // excludes (a missing namespace is NamespaceLifecycle's 404, said by its own warning in h.admit).
    const selector = verdict.invocation ? matchNamespaceSelector(entry.spec, review.attributes, cluster.namespaces) : undefined;
    if (selector && (selector.matches || selector.error)) return;
    const why = selector?.why ?? verdict.why;
    const key = `${entry.configuration}/${entry.spec.name} ${why}`;
    if (warned.has(key)) return;
    warned.add(key);
    process.emitWarning(
      `h.call(${JSON.stringify(reference)}, …): kube-apiserver would never send this request to the webhook: ${why}; its outcome says how the webhook answers a request it is not configured for`,
      { code: 'ADMISSION_HARNESS_UNMATCHED_CALL' },
    );
  };
}
