// A webhook in "another language": a standalone process started by `check --command`, reading its
// certificate and port the way the harness hands them over.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const server = https.createServer({ cert: readFileSync(process.env.TLS_CERT_FILE), key: readFileSync(process.env.TLS_KEY_FILE) }, (req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    let review;
    try {
      review = JSON.parse(body);
    } catch {
      res.writeHead(400).end();
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } }));
  });
});
server.listen(Number(process.argv[2] ?? process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
