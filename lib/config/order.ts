import type { WebhookEntry } from './load';

/** A webhook of the chain with its place in it. */
export interface ChainEntry {
  entry: WebhookEntry;
  /** Position in the sorted list of webhooks of its type. */
  index: number;
}

/**
 * Webhooks in kube-apiserver's order: configurations sorted by name (byte order), then webhooks in
 * their order inside each configuration (k8s.io/apiserver/pkg/admission/configuration/mutating_webhook_manager.go).
 */
export function chainOrder(entries: readonly WebhookEntry[], type: WebhookEntry['type']): ChainEntry[] {
  // A harness's webhooks never change: the order is worked out once per list.
  const cached = orders.get(entries)?.[type];
  if (cached) return cached;
  const order = entries
    .filter((e) => e.type === type)
    .map((entry, position) => ({ entry, position }))
    .sort((a, b) => compareBytes(a.entry.configuration, b.entry.configuration) || a.entry.index - b.entry.index || a.position - b.position)
    .map(({ entry }, index) => ({ entry, index }));
  orders.set(entries, { ...orders.get(entries), [type]: order });
  return order;
}

const orders = new WeakMap<readonly WebhookEntry[], Partial<Record<WebhookEntry['type'], ChainEntry[]>>>();

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Every webhook in the order kube-apiserver considers them: mutating, then validating. */
export function callOrder(entries: readonly WebhookEntry[]): WebhookEntry[] {
  return [...chainOrder(entries, 'mutating'), ...chainOrder(entries, 'validating')].map((c) => c.entry);
}
