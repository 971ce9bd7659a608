// Breaks dryrun-honored: refuses dryRun requests (it has side effects it cannot skip, yet the manifest
// declares sideEffects None), so `kubectl apply --dry-run=server` fails where the real apply works.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  if (review.request.dryRun)
    return reply(res, review, { allowed: false, status: { code: 400, reason: 'BadRequest', message: 'dry-run requests are not supported' } });
  reply(res, review);
});
