import type { IncomingMessage, ServerResponse } from 'node:http';
import { BREAK_GLASS, refusal } from './policy';

interface ImageReview {
  apiVersion?: string;
  kind?: string;
  spec?: { containers?: { image?: string }[]; annotations?: Record<string, string>; namespace?: string };
}

/** The answer to one ImageReview: denied with every refused image as the reason, or allowed. */
export function decide(review: ImageReview): { allowed: boolean; reason?: string; auditAnnotations?: Record<string, string> } {
  const spec = review.spec ?? {};
  if (spec.annotations?.[BREAK_GLASS] === 'true') return { allowed: true, auditAnnotations: { 'break-glass': 'true' } };
  const refused = (spec.containers ?? []).map((c) => refusal(c.image ?? '')).filter((r): r is string => r !== undefined);
  return refused.length > 0 ? { allowed: false, reason: refused.join('; ') } : { allowed: true };
}

/**
 * The ImagePolicyWebhook backend: kube-apiserver POSTs an ImageReview (imagepolicy.k8s.io/v1alpha1) to the
 * server of the kubeconfig its AdmissionConfiguration names; the answer is the review with `status` set.
 */
export function app(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    let review: ImageReview;
    try {
      review = JSON.parse(body) as ImageReview;
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('expected an ImageReview in JSON');
      return;
    }
    const answer = { apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', status: decide(review) };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
  });
}

export default app;
