// A webhook process that answers `ANSWERS` requests (argv[2], 5 by default) and then exits with code 1
// once the last answer is written, as a webhook that runs out of memory does: the request after it finds
// nothing listening, and a call already on its way finds its connection closed. Otherwise it is correct:
// on /mutate it labels a pod once (idempotent), so the battery's reinvocation checks call it again.
import { readFileSync } from 'node:fs';
import https from 'node:https';

const answers = Number(process.argv[2] ?? 5);
let served = 0;
const server = https.createServer({ cert: readFileSync(process.env.TLS_CERT_FILE), key: readFileSync(process.env.TLS_KEY_FILE) }, (req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const review = JSON.parse(body);
    res.setHeader('Content-Type', 'application/json');
    const response = { uid: review.request.uid, allowed: true };
    const labels = review.request.object?.metadata?.labels;
    if (req.url.startsWith('/mutate') && review.request.object && !labels?.['example.com/checked']) {
      const patch = labels
        ? [{ op: 'add', path: '/metadata/labels/example.com~1checked', value: 'true' }]
        : [{ op: 'add', path: '/metadata/labels', value: { 'example.com/checked': 'true' } }];
      Object.assign(response, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    }
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
    if (++served === answers) {
      res.on('finish', () => {
        process.stderr.write(`served ${answers} requests\n`);
        process.stderr.write('fatal: heap limit reached, exiting\n');
        process.exit(1);
      });
    }
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
