// Breaks object-valid: labels every pod with its team, spelled as people write it ("platform team"),
// which is not a valid label value: the API refuses the patched pod with 422 before any validating webhook.
import { jsonPatch, pointer, reply, webhook } from './kit';

const LABEL = 'zoo.example.com/team';

export default webhook((review, res) => {
  const { operation, object, subResource } = review.request;
  const metadata = object?.metadata;
  if (operation !== 'CREATE' || subResource || !metadata || metadata.labels?.[LABEL] !== undefined) return reply(res, review);
  const op = metadata.labels
    ? { op: 'add', path: `/metadata/labels/${pointer(LABEL)}`, value: 'platform team' }
    : { op: 'add', path: '/metadata/labels', value: { [LABEL]: 'platform team' } };
  reply(res, review, jsonPatch([op]));
});
