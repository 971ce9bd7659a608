// Breaks delete-handled: reads request.object, which is null on DELETE, so it crashes and drops the
// connection (CONNECT options objects, without metadata, are handled).
import { reply, webhook, type ZooObject } from './kit';

export default webhook((review, res) => {
  const object = review.request.object as ZooObject;
  const labels = object.metadata?.labels ?? {};
  reply(res, review, labels['zoo.example.com/frozen'] ? { allowed: false, status: { code: 403, message: 'the object is frozen' } } : {});
});
