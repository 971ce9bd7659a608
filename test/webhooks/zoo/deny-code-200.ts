// Breaks deny-status: denies pods without a team label with a message but HTTP-style "OK" code 200.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  const team = review.request.object?.metadata?.labels?.team;
  reply(res, review, team ? {} : { allowed: false, status: { code: 200, message: 'pods need a team label' } });
});
