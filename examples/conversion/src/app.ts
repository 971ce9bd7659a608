import type { IncomingMessage, ServerResponse } from 'node:http';
import { convertBackup, type Backup } from './convert';

interface ConversionReview {
  apiVersion: string;
  kind: string;
  request?: { uid: string; desiredAPIVersion: string; objects: Backup[] };
}

/** The answer to a ConversionReview: every object converted, in order, or a Failure saying why. */
export function answer(review: ConversionReview): object {
  const request = review.request;
  if (!request) return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: '', result: { status: 'Failure', message: 'no request' } } };
  try {
    const convertedObjects = request.objects.map((object) => convertBackup(object, request.desiredAPIVersion));
    return { apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: request.uid, convertedObjects, result: { status: 'Success' } } };
  } catch (error) {
    return {
      apiVersion: review.apiVersion,
      kind: 'ConversionReview',
      response: { uid: request.uid, result: { status: 'Failure', message: (error as Error).message } },
    };
  }
}

/** The Backup conversion webhook: `POST /convert` with a ConversionReview (apiextensions.k8s.io/v1). */
export function app(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST' || !req.url?.startsWith('/convert')) {
    res.writeHead(404).end();
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    let review: ConversionReview;
    try {
      review = JSON.parse(body) as ConversionReview;
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('expected a ConversionReview in JSON');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer(review)));
  });
}

export default app;
