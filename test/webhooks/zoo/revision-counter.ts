// Breaks idempotent-reinvocation only: counts a pod's updates in an annotation, but from the object
// being written instead of oldObject, so every reinvocation of an UPDATE counts once more. On CREATE
// it starts the count only when none is set, so a pod created with the annotation is left alone.
import { jsonPatch, pointer, reply, webhook } from './kit';

const KEY = 'zoo.example.com/revision';

export default webhook((review, res) => {
  const { operation, object } = review.request;
  const annotations = object?.metadata?.annotations;
  const current = annotations?.[KEY];
  let next: string | undefined;
  if (operation === 'UPDATE') next = String(Number(current ?? '0') + 1);
  else if (operation === 'CREATE' && current === undefined) next = '1';
  if (next === undefined) return reply(res, review);
  const op = annotations
    ? { op: 'add', path: `/metadata/annotations/${pointer(KEY)}`, value: next }
    : { op: 'add', path: '/metadata/annotations', value: { [KEY]: next } };
  reply(res, review, jsonPatch([op]));
});
