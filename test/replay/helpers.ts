import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AuditSource, Recordable } from '../../lib/audit';
import type { HarnessCallOutcome } from '../../lib/harness';
import type { JsonPatchOperation } from '../../lib/kube/admission';
import { yaml } from '../../lib/yaml';
import { mutatePod } from '../../examples/pod-defaults/src/mutate';
import { patched, podOf, reply, requestOf, type AdmissionReview, type PatchOperation } from '../../examples/pod-defaults/src/review';

/** The repository's example webhook: its manifests and webhook names. */
export const MANIFESTS = path.join(__dirname, '../../examples/pod-defaults/deploy/webhooks.yaml');
export const MUTATE = 'pod-defaults.example.com';
export const VALIDATE = 'image-policy.example.com';

/** An audit source as `review --from-audit` writes it, the format's only source besides `record`'s. */
export function auditSource(n: number): AuditSource {
  return { from: 'audit', auditID: `audit-${n}`, stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/shop/pods', objectFrom: 'requestObject' };
}

/** What a call sent and got, as a fixture records it. */
export function recorded(outcome: HarnessCallOutcome, n = 1): Recordable {
  const request = outcome.review.request;
  if (!request) throw new Error('the outcome has no request');
  return { source: auditSource(n), request, ...(outcome.response ? { response: outcome.response } : {}), limits: [] };
}

/** base64 of a JSON Patch, as a webhook sends it. */
export function patchBytes(ops: readonly JsonPatchOperation[]): string {
  return Buffer.from(JSON.stringify(ops)).toString('base64');
}

/** A fresh temporary directory, and its removal. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ah-replay-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes `text` (or YAML 1.1 documents) to `dir/name`; returns the path. */
export function writeFile(dir: string, name: string, content: string | readonly unknown[]): string {
  const file = path.join(dir, name);
  const text = typeof content === 'string' ? content : content.map((doc) => yaml().stringify(doc, { version: '1.1', lineWidth: 0 })).join('---\n');
  writeFileSync(file, text);
  return file;
}

/**
 * The example's webhook with its mutating handler changed: `change` rewrites the patch before it is
 * sent. The validating path answers as the example does (allowed), which these tests do not replay.
 */
export function changedWebhook(change: (ops: PatchOperation[]) => PatchOperation[]): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const review = JSON.parse(body) as AdmissionReview;
      const request = requestOf(review);
      const pod = request && podOf(request);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(reply(review, pod && req.url?.startsWith('/mutate?') ? patched(change(mutatePod(pod))) : { allowed: true })));
    });
  };
}

/** One patch value altered: the first container's default CPU limit becomes 250m. */
export function halveFirstCpuLimit(ops: PatchOperation[]): PatchOperation[] {
  return JSON.parse(JSON.stringify(ops).replace('"cpu":"500m"', '"cpu":"250m"')) as PatchOperation[];
}
