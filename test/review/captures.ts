import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdmissionRequest, KubeObject } from '../../lib/kube/admission';

// Recorded on a real kube-apiserver v1.36.2, verbatim: test/fixtures/apiserver-captures (README.md there says how).
export const CAPTURES = path.join(__dirname, '../fixtures/apiserver-captures');

export interface Capture {
  file: string;
  client: string;
  calls: { webhook: string; body: { request: AdmissionRequest } }[];
}

export function captureFiles(): string[] {
  return readdirSync(CAPTURES)
    .filter((file) => file.endsWith('.json'))
    .sort();
}

export function capture(file: string): Capture {
  return { file, ...(JSON.parse(readFileSync(path.join(CAPTURES, file), 'utf8')) as Omit<Capture, 'file'>) };
}

/**
 * The requests the client's action caused, as the first `*\/*` mutating webhook got them: one per
 * admission round, without the apiserver's own background writes (IP allocation, CRD status).
 */
export function actionRequests(file: string): AdmissionRequest[] {
  return capture(file)
    .calls.filter((call) => call.webhook === 'mutate.capture.local' && call.body.request.userInfo.username !== 'system:apiserver')
    .map((call) => call.body.request);
}

/** The first request of the action. */
export function actionRequest(file: string): AdmissionRequest {
  const [first] = actionRequests(file);
  if (!first) throw new Error(`${file} has no request of the client's action`);
  return first;
}

/** The JSON manifest the client sent (`echo '…' | kubectl …` or `curl --data '…'`), if the command shows one. */
export function manifestOf(file: string): KubeObject | undefined {
  const match = /(?:echo|--data(?:-binary)?) '(\{.*?\})'/.exec(capture(file).client);
  return match?.[1] ? (JSON.parse(match[1]) as KubeObject) : undefined;
}

/** The widgets.capture.example.com CRD exactly as kubectl sent it. */
export function widgetsCrd(): KubeObject {
  return structuredClone(actionRequest('customresourcedefinitions-create.json').object!);
}

/** `value` without metadata.managedFields, or with each entry's time replaced by its format. */
export function withoutManagedFields(value: KubeObject | null): KubeObject | null {
  if (!value) return value;
  const { managedFields: _ignored, ...metadata } = value.metadata ?? {};
  return { ...value, metadata };
}
