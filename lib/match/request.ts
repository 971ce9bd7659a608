import type { GroupVersionKind, GroupVersionResource, KubeObject, Operation, UserInfo } from '../kube/admission';

/** What the predicates read of a request: kube-apiserver's admission.Attributes. */
export interface MatchAttributes {
  operation: Operation;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  name: string;
  namespace: string;
  object: KubeObject | null;
  oldObject: KubeObject | null;
  /** Read by matchConditions' `request` variable only. */
  userInfo?: UserInfo;
  dryRun?: boolean;
  options?: KubeObject | null;
}

/** Core v1 namespaces: cluster-scoped, yet their requests carry a namespace (their own name). */
export function isNamespaceResource(resource: GroupVersionResource): boolean {
  return resource.group === '' && resource.version === 'v1' && resource.resource === 'namespaces';
}

/** `group/version, Resource=resource` — how Go prints a GroupVersionResource in errors. */
export function formatGvr(gvr: GroupVersionResource): string {
  return `${gvr.group}/${gvr.version}, Resource=${gvr.resource}`;
}
