import https from 'node:https';
import type { KubeObject } from '../../lib/kube/admission';
import type { MockApi } from '../../lib/mockapi';

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON (an object or a Status), or the text of a non-JSON answer. */
  body: unknown;
}

/** The answer's body as an object, for reading fields. */
export const objectOf = (reply: Reply): KubeObject => reply.body as KubeObject;

/** One authenticated call through global fetch, which msw intercepts in-process. */
export async function call(api: MockApi, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${api.token}`, ...(body !== undefined ? { 'Content-Type': contentType } : {}) },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
}

export const configMap = (name: string, namespace = 'team-a', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, ...extra },
  data: { k: 'v' },
});

/** One authenticated call over real TLS to the loopback server, trusting only the API's CA (for an API started with `intercept: false`). */
export function tlsCall(api: MockApi, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
  const sent = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = https.request(
      `${api.url}${path}`,
      { method, ca: api.ca, headers: { Authorization: `Bearer ${api.token}`, ...(sent !== undefined ? { 'Content-Type': contentType } : {}) } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
          const json = (response.headers['content-type'] ?? '').includes('json');
          resolve({ status: response.statusCode ?? 0, headers, body: json ? JSON.parse(text) : text });
        });
      },
    );
    request.on('error', reject);
    request.end(sent);
  });
}
