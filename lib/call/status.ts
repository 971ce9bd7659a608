import type { Status } from '../kube/admission';

/**
 * The Status a client receives when webhook `name` denies a request: kube-apiserver's `ToStatusErr`
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go). The webhook's own reason and details pass through; code < 400 becomes 400.
 */
export function denialStatus(name: string, status: Status | undefined): Status {
  const given = status ?? {};
  const explanation = given.message || given.reason;
  const message = explanation
    ? `admission webhook "${name}" denied the request: ${explanation}`
    : `admission webhook "${name}" denied the request without explanation`;
  const code = typeof given.code === 'number' && given.code >= 400 ? given.code : 400;
  const phase = given.status === undefined || given.status === '' || given.status === 'Success' ? 'Failure' : given.status;
  return {
    ...given,
    kind: 'Status',
    apiVersion: 'v1',
    metadata: given.metadata ?? {},
    status: phase,
    message,
    code,
  };
}
