import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdmissionReview } from '../../lib/kube/admission';

/** What a test webhook saw: method, URL, headers and the parsed review. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  review: AdmissionReview;
  servername: string | undefined;
  /** The client's port: equal for calls that shared one connection. */
  remotePort: number | undefined;
}

export type Answer =
  | { json: unknown; status?: number; headers?: Record<string, string> }
  | { raw: string | Buffer; status?: number; headers?: Record<string, string> }
  | { delayMs: number; then: Answer }
  | { destroy: true };

/**
 * A webhook for tests: records each request and answers with whatever `answer` returns for it (given the
 * review and the request's URL), so one handler can play a good webhook or any broken one.
 */
export function scriptedWebhook(answer: (review: AdmissionReview, url: string) => Answer): {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  received: Received[];
} {
  const received: Received[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdmissionReview;
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        review,
        servername: (req.socket as { servername?: string }).servername,
        remotePort: req.socket.remotePort,
      });
      send(res, answer(review, req.url ?? ''));
    });
  };
  return { handler, received };
}

function send(res: ServerResponse, answer: Answer): void {
  if ('destroy' in answer) {
    res.socket?.destroy();
    return;
  }
  if ('delayMs' in answer) {
    const timer = setTimeout(() => send(res, answer.then), answer.delayMs);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  const body = 'json' in answer ? JSON.stringify(answer.json) : answer.raw;
  res.writeHead(answer.status ?? 200, { 'Content-Type': 'json' in answer ? 'application/json' : 'text/plain', ...answer.headers });
  res.end(body);
}

/** The well-formed v1 answer: echo uid and version, decide `allowed`, add whatever else is given. */
export function answer(review: AdmissionReview, response: Record<string, unknown> = {}): Answer {
  return {
    json: {
      apiVersion: review.apiVersion,
      kind: 'AdmissionReview',
      response: { uid: review.request?.uid, allowed: true, ...response },
    },
  };
}

export function base64Patch(ops: unknown[]): string {
  return Buffer.from(JSON.stringify(ops)).toString('base64');
}
