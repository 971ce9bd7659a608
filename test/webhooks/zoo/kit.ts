// The little each zoo webhook shares: reading the AdmissionReview and writing a well-formed answer.
// Every zoo webhook is otherwise a correct one, so the one thing it breaks is the only thing wrong.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ZooObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { containers?: { name: string; image?: string }[] };
}

export interface ZooRequest {
  uid: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name?: string;
  object?: ZooObject | null;
  oldObject?: ZooObject | null;
  dryRun?: boolean;
}

export interface ZooReview {
  apiVersion: string;
  kind: string;
  request: ZooRequest;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A webhook from `answer`, which writes the reply. An exception thrown by `answer` is a crash: the
 * connection is closed without a reply, as Go's net/http does when it recovers a handler's panic.
 */
export function webhook(answer: (review: ZooReview, res: ServerResponse, req: IncomingMessage) => void): Handler {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ZooReview, res, req);
      } catch {
        res.socket?.destroy();
      }
    });
  };
}

/** Writes a JSON body with the given HTTP status. */
export function sendJson(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The correct answer: the request's apiVersion and kind, its uid, allowed unless `response` says otherwise. */
export function reply(res: ServerResponse, review: ZooReview, response: Record<string, unknown> = {}): void {
  sendJson(res, { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, ...response } });
}

/** `patch` and `patchType` members for a JSON Patch. */
export function jsonPatch(ops: unknown[]): { patch: string; patchType: 'JSONPatch' } {
  return { patch: Buffer.from(JSON.stringify(ops)).toString('base64'), patchType: 'JSONPatch' };
}

/** JSON Pointer escaping of one path segment. */
export function pointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A container securityContext that keeps a pod within the `restricted` Pod Security Standard, for sidecars whose fault is elsewhere. */
export const RESTRICTED = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
