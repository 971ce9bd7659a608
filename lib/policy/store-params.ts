import type { KubeObject } from '../kube/admission';
import type { ObjectStore } from '../mockapi/store';
import { splitApiVersion } from '../kube/api-version';
import type { ParamSource } from './params';

/** The cluster's objects as params, namespace objects and what the built-in plugins read and write: the mock API's store (or the harness's own). */
export function storeParamSource(store: ObjectStore): ParamSource & { namespaceObject(name: string): KubeObject | undefined; put(object: KubeObject): void } {
  const entry = (apiVersion: string, kind: string) => {
    const [group, version] = splitApiVersion(apiVersion);
    return store.catalog.resourceForKind({ group, version, kind });
  };
  return {
    scope(apiVersion, kind) {
      const found = entry(apiVersion, kind);
      return found && { namespaced: found.namespaced };
    },
    // Readers here change nothing: they get the stored objects themselves (frozen), not copies.
    get: (apiVersion, kind, namespace, name) => store.view(apiVersion, kind, name, namespace),
    list(apiVersion, kind, namespace) {
      const found = entry(apiVersion, kind);
      return found ? store.listView(found, namespace) : [];
    },
    namespaceObject: (name) => store.view('v1', 'Namespace', name),
    put: (object) => void store.put(object),
  };
}
