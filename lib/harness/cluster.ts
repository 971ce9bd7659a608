import { HarnessError } from '../errors';
import type { KubeObject } from '../kube/admission';
import type { ResourceCatalog } from '../kube/catalog';
import type { NamespaceRegistry } from '../match/namespace-store';
import type { MockApi, MockApiOptions } from '../mockapi/mock-api';
import { ClusterNamespaces } from '../mockapi/namespaces';
import { startMockApi } from '../mockapi/start';
import { ObjectStore } from '../mockapi/store';
import { storeParamSource } from '../policy/store-params';
import { SeededRandom } from '../random';
import type { CertificateAuthority } from '../tls';
import type { Lifecycle } from './lifecycle';
import { givenMockApi, type HarnessOptions } from './options';

/** The mock cluster of a harness: its mock API (when it has one), its objects and its namespaces. */
export interface MockCluster {
  /** The mock Kubernetes API for the webhook's own calls, started by the harness or handed over. */
  api?: MockApi;
  /** The cluster's objects: the mock API's store, or the harness's own. */
  store: ObjectStore;
  /** The namespaces, as namespaceSelectors see them. */
  namespaces: NamespaceRegistry;
  /** The store as policies' params, namespace objects and what the built-in plugins read and write. */
  objects: ReturnType<typeof storeParamSource>;
}

/** What the harness gives a mock API it starts: its catalog, CA, seed and clock, and what its capabilities add. */
interface MockApiShared {
  catalog: ResourceCatalog;
  authority: CertificateAuthority;
  seed: number;
  timeScale: number;
  capabilities: Pick<MockApiOptions, 'converter'>;
}

/**
 * The harness's mock cluster: the mock API the options ask for (started, and closed with the harness) or
 * hand over (used as is, its namespaces the ones namespaceSelectors see), the namespaces declared.
 * `objects` are seeded apart (seedObjects), once the harness owns what it started.
 */
export async function mockCluster(options: HarnessOptions, shared: MockApiShared, lifecycle: Lifecycle): Promise<MockCluster> {
  const api = givenMockApi(options) ?? (await startedMockApi(options, shared));
  if (api && !givenMockApi(options)) lifecycle.own(() => api.close(), 'cluster');
  const store = api?.store ?? new ObjectStore(shared.catalog, new SeededRandom(shared.seed));
  let namespaces: NamespaceRegistry;
  if (api) {
    namespaces = api.namespaces;
    for (const namespace of options.namespaces ?? []) namespaces.set(namespace);
  } else {
    const cluster = new ClusterNamespaces(store);
    cluster.seed(options.namespaces ?? []);
    namespaces = cluster;
  }
  return { ...(api ? { api } : {}), store, namespaces, objects: storeParamSource(store) };
}

/** The mock API the harness starts (and owns) when the options ask for one rather than pass one. */
async function startedMockApi(options: HarnessOptions, shared: MockApiShared): Promise<MockApi | undefined> {
  const requested = options.mockApi;
  if (!requested || (typeof requested === 'object' && 'writes' in requested)) return undefined;
  return startMockApi({
    catalog: shared.catalog,
    authority: shared.authority,
    seed: shared.seed,
    ...(options.authorizer ? { authorizer: options.authorizer } : {}),
    ...(options.allowPrivileged ? { allowPrivileged: true } : {}),
    ...shared.capabilities,
    ...(requested === true ? {} : requested),
    timeScale: shared.timeScale,
  });
}

/**
 * Puts the test's objects into the cluster, each error naming the object. Namespaces go first, whatever
 * the order given: `kubectl apply -f` of a folder converges the same way (a namespaced object refused
 * for its missing namespace succeeds on the next apply), so an order of the list is no fact of the
 * cluster. An object whose namespace is never defined is still refused.
 */
export function seedObjects(store: ObjectStore, objects: readonly KubeObject[]): void {
  const isNamespace = (object: KubeObject) => object.apiVersion === 'v1' && object.kind === 'Namespace';
  const indexed = objects.map((object, i) => [object, i] as const);
  const ordered = [...indexed.filter(([object]) => isNamespace(object)), ...indexed.filter(([object]) => !isNamespace(object))];
  ordered.forEach(([object, i]) => {
    const what = `objects[${i}] (${object.kind ?? 'no kind'} ${JSON.stringify([object.metadata?.namespace, object.metadata?.name].filter(Boolean).join('/'))})`;
    try {
      store.put(object);
    } catch (error) {
      throw new HarnessError(
        'USAGE',
        `${what}: ${(error as Error).message}`,
        "declare the namespace (in createHarness({ namespaces }) or a suite's `namespaces`, or as a Namespace among the objects), and give each object apiVersion, kind and metadata.name",
        { cause: error },
      );
    }
  });
}
