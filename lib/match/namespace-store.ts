import { BUILTIN_NAMESPACES, namespaceLabels } from '../kube/namespaces';
import type { NamespaceLookup } from './namespace-selector';

/** A namespace a test declares: its name and labels. */
export interface NamespaceSpec {
  name: string;
  labels?: Record<string, string>;
}

/** The mock cluster's namespaces: what tests declare, and what namespaceSelectors read. */
export interface NamespaceRegistry extends NamespaceLookup {
  set(namespace: NamespaceSpec): void;
  delete(name: string): void;
}

/**
 * The namespaces of the mock cluster. Like kube-apiserver, every namespace carries the immutable
 * label `kubernetes.io/metadata.name: <name>`, which selectors commonly use.
 */
export class NamespaceStore implements NamespaceRegistry {
  private readonly byName = new Map<string, Record<string, string>>();

  constructor(declared: readonly NamespaceSpec[] = []) {
    for (const name of BUILTIN_NAMESPACES) this.set({ name });
    for (const namespace of declared) this.set(namespace);
  }

  set(namespace: NamespaceSpec): void {
    this.byName.set(namespace.name, namespaceLabels(namespace.name, namespace.labels));
  }

  delete(name: string): void {
    this.byName.delete(name);
  }

  labels(name: string): Readonly<Record<string, string>> | undefined {
    return this.byName.get(name);
  }
}
