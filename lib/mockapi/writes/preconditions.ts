/**
 * A delete's preconditions (DeleteOptions.preconditions: uid, resourceVersion), checked against the stored
 * object before anything is removed, as k8s.io/apiserver `pkg/registry/rest/delete.go` BeforeDelete checks
 * them. Its Conflict names the object's kind where other conflicts name the resource (`ConfigMap "p2"`,
 * `Deployment.apps "web"`): BeforeDelete builds the GroupResource from the kind.
 */
import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { isObject } from '../../kube/json';
import { ApiError, conflict } from '../../kube/status';

interface Preconditions {
  uid?: unknown;
  resourceVersion?: unknown;
}

/** Throws kube's 409 when the DeleteOptions' preconditions do not hold for the stored object. */
export function checkDeletePreconditions(entry: CatalogEntry, stored: KubeObject, options: Record<string, unknown>): void {
  const preconditions: Preconditions = isObject(options.preconditions) ? options.preconditions : {};
  const name = stored.metadata?.name ?? '';
  const byKind = { group: entry.group, resource: entry.kind };
  const { uid, resourceVersion } = preconditions;
  if (typeof uid === 'string' && uid !== '' && uid !== stored.metadata?.uid) {
    const cause = `the UID in the precondition (${uid}) does not match the UID in record (${stored.metadata?.uid ?? ''}). The object might have been deleted and then recreated`;
    throw new ApiError(conflict(byKind, name, cause));
  }
  if (typeof resourceVersion === 'string' && resourceVersion !== '' && resourceVersion !== stored.metadata?.resourceVersion) {
    const cause = `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${stored.metadata?.resourceVersion ?? ''}). The object might have been modified`;
    throw new ApiError(conflict(byKind, name, cause));
  }
}
