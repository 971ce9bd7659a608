// Breaks patch-applies through the API's decode, not the JSON patch: writes its labels as one string
// ("team=shop") where the API's type is a map. The patch applies as JSON; decoding the result into a
// Pod fails, a 500 whatever the failurePolicy (fixtures/apiserver-outcomes/patch-wrong-type-labels.json).
import { jsonPatch, reply, webhook } from './kit';

export default webhook((review, res) => {
  const { operation, object, subResource } = review.request;
  if (operation !== 'CREATE' || subResource || !object?.metadata) return reply(res, review);
  reply(res, review, jsonPatch([{ op: 'add', path: '/metadata/labels', value: 'team=shop' }]));
});
