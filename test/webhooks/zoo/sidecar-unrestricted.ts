// Breaks pod-security: injects a logging sidecar with no securityContext, so a pod that was within the
// `restricted` Pod Security Standard is not any more (a namespace enforcing it refuses the pod with 403).
import { jsonPatch, reply, webhook } from './kit';

export default webhook((review, res) => {
  const { operation, object, subResource } = review.request;
  const containers = object?.spec?.containers;
  if (operation !== 'CREATE' || subResource || !containers || containers.some((c) => c.name === 'zoo-logger')) return reply(res, review);
  reply(res, review, jsonPatch([{ op: 'add', path: '/spec/containers/-', value: { name: 'zoo-logger', image: 'ghcr.io/zoo/logger:v1.4.0' } }]));
});
