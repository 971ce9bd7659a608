import type { NamespaceLookup } from '../match/namespace-selector';
import type { NamespaceSpec } from '../match/namespace-store';
import type { ObjectStore } from './store';
import { ApiError } from '../kube/status';
import { BUILTIN_NAMESPACES } from '../kube/namespaces';

/**
 * The mock cluster's namespaces as namespaceSelectors read them: the Namespace objects of the mock API's
 * store, so a namespace the webhook (or the test) creates, relabels or deletes through the API is the one
 * the matcher sees. Same methods as NamespaceStore.
 */
export class ClusterNamespaces implements NamespaceLookup {
  constructor(private readonly store: ObjectStore) {}

  /** Adds the built-in namespaces and `declared`. */
  seed(declared: readonly NamespaceSpec[]): void {
    for (const name of BUILTIN_NAMESPACES) this.set({ name });
    for (const namespace of declared) this.set(namespace);
  }

  /** Creates the namespace, or replaces its labels. */
  set(namespace: NamespaceSpec): void {
    this.store.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace.name, labels: { ...namespace.labels } } });
  }

  /** Deletes the namespace and everything in it; a missing one is no error. */
  delete(name: string): void {
    try {
      this.store.delete(this.store.entryFor('v1', 'Namespace'), '', name);
    } catch (error) {
      if (!(error instanceof ApiError && error.status.code === 404)) throw error;
    }
  }

  labels(name: string): Readonly<Record<string, string>> | undefined {
    const namespace = this.store.read('v1', 'Namespace', name);
    return namespace && (namespace.metadata?.labels ?? {});
  }
}
