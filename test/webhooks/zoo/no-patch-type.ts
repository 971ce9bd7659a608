// Breaks patch-type: a mutating webhook that sends response.patch without response.patchType.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: { 'zoo.example.com/mutated': 'true' } }])).toString('base64');
  reply(res, review, { patch });
});
