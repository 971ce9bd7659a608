// Not broken: the control for the zoo. At /mutate it labels every object it may (idempotently: only
// when the label is missing); at /validate it denies pods using a `:latest` image, with a code and a
// message, and allows everything else. Answers v1 and v1beta1 reviews in their own version.
import { jsonPatch, pointer, reply, webhook } from './kit';

const LABEL = 'zoo.example.com/checked';

export default webhook((review, res, req) => {
  const { operation, object, subResource } = review.request;
  if (req.url?.startsWith('/mutate')) {
    const metadata = object?.metadata;
    if ((operation === 'CREATE' || operation === 'UPDATE') && !subResource && metadata && metadata.labels?.[LABEL] === undefined) {
      const ops = metadata.labels
        ? [{ op: 'add', path: `/metadata/labels/${pointer(LABEL)}`, value: 'true' }]
        : [{ op: 'add', path: '/metadata/labels', value: { [LABEL]: 'true' } }];
      return reply(res, review, jsonPatch(ops));
    }
    return reply(res, review);
  }
  const latest = (object?.spec?.containers ?? []).find((c) => c.image?.endsWith(':latest'));
  if (operation === 'CREATE' && review.request.resource.resource === 'pods' && !subResource && latest) {
    return reply(res, review, { allowed: false, status: { code: 403, reason: 'Forbidden', message: `container ${latest.name} uses a :latest image` } });
  }
  reply(res, review);
});
