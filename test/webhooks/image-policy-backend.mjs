// An ImagePolicyWebhook backend as a standalone process started by `check --image-policy-config … --command`:
// its certificate and port as the harness hands them over; it allows every image pinned by digest.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const server = https.createServer({ cert: readFileSync(process.env.TLS_CERT_FILE), key: readFileSync(process.env.TLS_KEY_FILE) }, (req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const review = JSON.parse(body);
    const unpinned = (review.spec.containers ?? []).map((c) => c.image).filter((image) => !image.includes('@sha256:'));
    const status = unpinned.length > 0 ? { allowed: false, reason: `not pinned: ${unpinned.join(', ')}` } : { allowed: true };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'ImageReview', status }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
