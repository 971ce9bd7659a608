import type { IncomingMessage, ServerResponse } from 'node:http';

/** A plain Node handler that allows every request, echoing its uid. */
export function app(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => {
    const { apiVersion, request } = JSON.parse(body) as { apiVersion: string; request: { uid: string } };
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid: request.uid, allowed: true } }));
  });
}
