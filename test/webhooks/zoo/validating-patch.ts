// Breaks patch-type: a validating webhook (sharing code with a mutating one) that returns a patch.
import { jsonPatch, reply, webhook } from './kit';

export default webhook((review, res) => {
  reply(res, review, jsonPatch([{ op: 'add', path: '/metadata/annotations', value: { 'zoo.example.com/validated': 'true' } }]));
});
