// Breaks patch-applies: strips a label it assumes every pod carries, with a `remove` that fails on
// objects that do not have it.
import { jsonPatch, pointer, reply, webhook } from './kit';

export default webhook((review, res) => {
  reply(res, review, jsonPatch([{ op: 'remove', path: `/metadata/labels/${pointer('zoo.example.com/legacy')}` }]));
});
