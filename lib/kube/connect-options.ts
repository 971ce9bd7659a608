/**
 * The core/v1 connect options' members in their Go struct order (types.go), as kube-apiserver encodes
 * a CONNECT request's options; their booleans are omitempty, so false is left out.
 */
export const CONNECT_OPTIONS_FIELD_ORDER: Readonly<Record<string, readonly string[]>> = {
  PodExecOptions: ['stdin', 'stdout', 'stderr', 'tty', 'container', 'command'],
  PodAttachOptions: ['stdin', 'stdout', 'stderr', 'tty', 'container'],
  PodPortForwardOptions: ['ports'],
  PodProxyOptions: ['path'],
  ServiceProxyOptions: ['path'],
  NodeProxyOptions: ['path'],
};
