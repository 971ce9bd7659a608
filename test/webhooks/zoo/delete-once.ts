// Breaks delete-repeatable: remembers the objects it allowed to be deleted and refuses a "second"
// delete of the same one, taking each admission of a DELETE for a new request. kube-apiserver admits one
// pod DELETE up to three times (once per storage attempt), so the pod is never deleted.
import { reply, webhook } from './kit';

const seen = new Set<string>();

export default webhook((review, res) => {
  const { operation, oldObject, namespace } = review.request as typeof review.request & { namespace?: string };
  if (operation !== 'DELETE') return reply(res, review);
  const key = `${namespace ?? ''}/${oldObject?.metadata?.name ?? ''}`;
  if (seen.has(key)) return reply(res, review, { allowed: false, status: { code: 409, reason: 'Conflict', message: `${key} is already being deleted` } });
  seen.add(key);
  reply(res, review);
});
