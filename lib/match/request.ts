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
