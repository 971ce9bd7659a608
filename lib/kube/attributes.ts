import type { GroupVersionKind, GroupVersionResource, KubeObject, Operation, UserInfo } from './admission';

/**
 * What kube-apiserver knows about a request when admission runs (its admission.Attributes): every
 * field of an AdmissionRequest except the per-call uid and the version-converted kind/resource.
 */
export interface AdmissionAttributes {
  operation: Operation;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  name: string;
  namespace: string;
  userInfo: UserInfo;
  object: KubeObject | null;
  oldObject: KubeObject | null;
  dryRun: boolean;
  options: KubeObject | null;
}

/** The user kubeadm's admin kubeconfig authenticates as. */
export const DEFAULT_USER: UserInfo = {
  username: 'kubernetes-admin',
  groups: ['system:masters', 'system:authenticated'],
};
