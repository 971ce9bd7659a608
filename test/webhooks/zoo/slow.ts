// Breaks timeout-budget: a lookup per container makes it slow for pods with more than one container
// (1.5 s, beyond its timeoutSeconds of 1); single-container pods are answered at once.
import { reply, webhook } from './kit';

export default webhook((review, res) => {
  const containers = review.request.object?.spec?.containers ?? [];
  if (containers.length < 2) return reply(res, review);
  const timer = setTimeout(() => reply(res, review), 1500);
  res.on('close', () => clearTimeout(timer));
});
