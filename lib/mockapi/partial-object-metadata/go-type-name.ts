import { splitApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import type { JsonObject } from '../../kube/json';
import { isBuiltin } from '../store';

/*
 * The Go type (`%T`) of the object a handler holds when it converts its answer, which kube's refusals to make a
 * PartialObjectMetadata of it name: a built-in resource's storage hands back its internal type
 * (`*core.ConfigMap`, `*apps.DeploymentList`), a custom resource's an unstructured one.
 */

// Internal API packages not named after the group's first label (k8s.io/kubernetes pkg/apis).
const INTERNAL_PACKAGES: Readonly<Record<string, string>> = {
  '': 'core',
  // events.k8s.io is served by the core Event storage.
  'events.k8s.io': 'core',
  'internal.apiserver.k8s.io': 'apiserverinternal',
};

/** `%T` of an answer's body at `entry`: list or object, internal type or unstructured. */
export function goTypeNameOf(body: JsonObject, entry: CatalogEntry, list: boolean): string {
  const kind = typeof body.kind === 'string' ? body.kind : '';
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  // The mock API serves no scale subresource of a custom resource (whose Scale is the external `*v1.Scale`).
  if (!isBuiltin(entry)) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const group = splitApiVersion(apiVersion)[0];
  return `*${INTERNAL_PACKAGES[group] ?? group.split('.')[0]}.${kind}`;
}
