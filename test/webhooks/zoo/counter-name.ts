// Breaks idempotent-preset (and so idempotent-reinvocation): names its sidecar with a counter, so an
// object that already has `zoo-agent-1` gets `zoo-agent-2` added; its check for an existing sidecar
// compares the full name.
import { jsonPatch, reply, RESTRICTED, webhook } from './kit';

let calls = 0;

export default webhook((review, res) => {
  const name = `zoo-agent-${++calls}`;
  if ((review.request.object?.spec?.containers ?? []).some((c) => c.name === name)) return reply(res, review);
  reply(res, review, jsonPatch([{ op: 'add', path: '/spec/containers/-', value: { name, image: 'ghcr.io/zoo/agent:v2.1.0', securityContext: RESTRICTED } }]));
});
