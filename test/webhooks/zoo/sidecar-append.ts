// Breaks idempotent-reinvocation: appends its sidecar without looking whether it is already there,
// so reinvoked with its own output it appends a second one.
import { jsonPatch, reply, RESTRICTED, webhook } from './kit';

export default webhook((review, res) => {
  reply(
    res,
    review,
    jsonPatch([{ op: 'add', path: '/spec/containers/-', value: { name: 'zoo-proxy', image: 'ghcr.io/zoo/proxy:v1.0.0', securityContext: RESTRICTED } }]),
  );
});
