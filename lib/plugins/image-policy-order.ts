/**
 * The validating plugins kube-apiserver runs before ImagePolicyWebhook (AllOrderedPlugins in
 * pkg/kubeapiserver/options/plugins.go: LimitPodHardAntiAffinityTopology, LimitRanger, ServiceAccount,
 * AlwaysPullImages, then ImagePolicyWebhook, then PodSecurity and the rest).
 */
export const BEFORE_IMAGE_POLICY: ReadonlySet<string> = new Set(['LimitPodHardAntiAffinityTopology', 'LimitRanger', 'ServiceAccount', 'AlwaysPullImages']);
