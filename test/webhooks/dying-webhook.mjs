// A webhook process that dies mid-run: it answers `ANSWERS` requests (argv[2], 3 by default), then, on the
// next one, writes to stderr and exits with code 3, as a webhook hitting a fatal bug does.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const answers = Number(process.argv[2] ?? 3);
let served = 0;
const server = https.createServer({ cert: readFileSync(process.env.TLS_CERT_FILE), key: readFileSync(process.env.TLS_KEY_FILE) }, (req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const review = JSON.parse(body);
    if (++served > answers) {
      process.stderr.write(`handling ${review.request.operation} ${review.request.resource.resource}\n`);
      process.stderr.write('fatal: connection pool exhausted\n');
      process.exit(3);
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
