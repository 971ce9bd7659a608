import { BUILTIN_NAMESPACES } from '../kube/namespaces';
import type { NamespaceSpec } from '../match/namespace-store';
import { isAdmission, type LoadedFixture } from './fixture';

/**
 * The namespaces a harness replaying `fixtures` declares: the given ones, then the namespace of each
 * admission fixture's request that is neither given nor built in, without labels. A recorded admission
 * happened in a namespace that existed; without it NamespaceLifecycle would refuse the request with 404
 * before any webhook (plugin/pkg/admission/namespace/lifecycle/admission.go, Admit). Labels a
 * namespaceSelector reads are the caller's to give.
 */
export function namespacesOfFixtures(fixtures: readonly LoadedFixture[], given: readonly NamespaceSpec[] = []): NamespaceSpec[] {
  const names = new Set([...BUILTIN_NAMESPACES, ...given.map((n) => n.name)]);
  const added: NamespaceSpec[] = [];
  for (const fixture of fixtures) {
    const namespace = fixture.recorded.request.namespace;
    if (!isAdmission(fixture) || !namespace || names.has(namespace)) continue;
    names.add(namespace);
    added.push({ name: namespace });
  }
  return [...given, ...added];
}
