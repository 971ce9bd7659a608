// A naive webhook process: its handler assumes every body is an AdmissionReview and reads
// `review.request.uid` without looking. Anything else (a readiness probe's `{}`) throws outside any
// try, and the process dies. kube-apiserver never sends such a body, so the harness must not either.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const server = https.createServer({ cert: readFileSync(process.env.TLS_CERT_FILE), key: readFileSync(process.env.TLS_KEY_FILE) }, (req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const review = JSON.parse(body);
    const uid = review.request.uid;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid, allowed: true } }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
