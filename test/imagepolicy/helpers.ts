import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { parse } from 'yaml';
import { createHarness, type Harness, type HarnessOptions } from '../../lib';
import { manualClock, type ManualClock } from '../../lib/imagepolicy';
import type { KubeObject } from '../../lib/kube/admission';
import { sharedAuthority } from '../../lib/tls';

/** One recorded case (recorded on a real kube-apiserver v1.36.2; see fixtures/README.md). */
export interface RecordedCase {
  case: string;
  description: string;
  environment: {
    admissionConfig: string;
    imagePolicyKubeconfig: string;
    observerWebhook: { registered: { name: string; clientConfig: object } & Record<string, unknown> };
  };
  steps: {
    request: { method: string; path: string; headers: Record<string, string>; body?: KubeObject };
    response: { code: number; body?: { kind?: string; message?: string; metadata?: { annotations?: Record<string, string> } } };
  }[];
  observerWebhookReceived: { body: { request: { operation: string; name: string; namespace: string } } }[];
  backendReceived: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: unknown;
    bodyRawIsCompactJSON: boolean;
    backendAnsweredWith: BackendAnswer;
    receivedAt: string;
  }[];
  audit?: { annotations: Record<string, string> }[];
  notes: string[];
}

export function recorded(basename: string): RecordedCase {
  return JSON.parse(readFileSync(path.join(__dirname, 'fixtures', `${basename}.json`), 'utf8')) as RecordedCase;
}

/** What the recording backend answered. */
export type BackendAnswer = { kind: 'allow' | 'deny'; reason?: string; auditAnnotations?: Record<string, string> } | { kind: 'http500'; text: string };

/** What a backend received: as the recording's `backendReceived` holds it. */
export interface Received {
  method: string;
  url: string;
  headers: Record<string, string>;
  raw: string;
  body: unknown;
}

/** A backend like the recording's: logs each request, answers as `answer` says (settable between requests). */
export function recordingBackend(answer: BackendAnswer = { kind: 'allow' }): {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  received: Received[];
  answer: BackendAnswer;
} {
  const backend = {
    received: [] as Received[],
    answer,
    handler(req: IncomingMessage, res: ServerResponse) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'accept', 'accept-encoding', 'user-agent', 'content-length']) headers[name] = String(req.headers[name]);
        let body: { apiVersion: string };
        try {
          body = JSON.parse(raw) as { apiVersion: string };
        } catch {
          // Not an ImageReview (once seen under heavy load: an empty body). It is left out of `received`, so a
          // test counting what the backend got still fails if the plugin sent it; the answer says why.
          res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`not an ImageReview: ${JSON.stringify(raw.slice(0, 80))}`);
          return;
        }
        backend.received.push({ method: req.method ?? '', url: req.url ?? '', headers, raw, body });
        const given = backend.answer;
        if (given.kind === 'http500') {
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end(given.text);
          return;
        }
        const status = {
          allowed: given.kind === 'allow',
          ...(given.reason ? { reason: given.reason } : {}),
          ...(given.auditAnnotations ? { auditAnnotations: given.auditAnnotations } : {}),
        };
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: body.apiVersion, kind: 'ImageReview', status }));
      });
    },
  };
  return backend;
}

export const NAMESPACES = ['o4-ip2', 'o4-ip2-b', 'o4-ip2-da'].map((name) => ({ name }));

/**
 * A harness configured as the recording's kube-apiserver: its AdmissionConfiguration and kubeconfig as
 * recorded, the CA file the kubeconfig names given as data (the harness serves the backend).
 */
export async function harnessFor(
  fixture: RecordedCase,
  target: HarnessOptions['target'] & object,
  clock: ManualClock = manualClock(),
  extra: Partial<HarnessOptions> = {},
): Promise<{ h: Harness; clock: ManualClock }> {
  const authority = await sharedAuthority();
  const kubeconfig = parse(
    fixture.environment.imagePolicyKubeconfig.replace('certificate-authority: <path>', `certificate-authority-data: ${authority.caBundle}`),
  ) as object;
  const h = await createHarness({
    seed: 29,
    namespaces: NAMESPACES,
    ...extra,
    imagePolicy: { admissionConfig: parse(fixture.environment.admissionConfig) as object, kubeconfig, target: target as never, clock },
  });
  return { h, clock };
}
