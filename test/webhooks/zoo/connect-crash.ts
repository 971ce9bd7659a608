// Breaks connect-handled: reads the labels of "the object" (oldObject on DELETE), which for CONNECT
// is an options object (PodExecOptions, PodProxyOptions, …) without metadata, so it crashes and
// drops the connection.
import { reply, webhook, type ZooObject } from './kit';

export default webhook((review, res) => {
  const object = review.request.object ?? review.request.oldObject;
  const metadata = object?.metadata as NonNullable<ZooObject['metadata']>;
  const labels = metadata.labels ?? {};
  reply(res, review, labels['zoo.example.com/frozen'] ? { allowed: false, status: { code: 403, message: 'the object is frozen' } } : {});
});
