import type { GroupVersionResource } from './admission';

/** Core v1 namespaces: cluster-scoped, yet their requests carry a namespace (their own name). */
export function isNamespaceResource(resource: GroupVersionResource): boolean {
  return resource.group === '' && resource.version === 'v1' && resource.resource === 'namespaces';
}

/** `group/version, Resource=resource` — how Go prints a GroupVersionResource in errors. */
export function formatGvr(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}
