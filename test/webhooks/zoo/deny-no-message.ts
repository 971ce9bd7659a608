// Breaks deny-status: denies pods without a team label, with a code but no message.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  const team = review.request.object?.metadata?.labels?.team;
  reply(res, review, team ? {} : { allowed: false, status: { code: 403, reason: 'Forbidden' } });
});
