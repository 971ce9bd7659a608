// Breaks subresource-handled: written for whole objects, it has nothing to check on a status or
// scale update, and its early return forgets to answer with a review: an empty 200.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  const { subResource } = review.request;
  if (subResource === 'status' || subResource === 'scale') return void res.end();
  reply(res, review);
});
