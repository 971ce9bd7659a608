// Breaks patch-on-delete: stamps a deletion annotation on DELETE, when there is no object to patch.
// CREATE requests pass untouched.
import { jsonPatch, reply, webhook } from './kit';

export default webhook((review, res) => {
  if (review.request.operation === 'DELETE') {
    return reply(res, review, jsonPatch([{ op: 'add', path: '/metadata/annotations', value: { 'zoo.example.com/deleted-by': 'zoo' } }]));
  }
  reply(res, review);
});
