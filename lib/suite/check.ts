import type { AdmitResult } from '../dispatch/result';
import type { CaseExpectation } from './model';
import { subsetMismatch } from './subset';

const show = (value: unknown) => JSON.stringify(value);

/** Every way `result` differs from what the case expects, one sentence each. */
export function checkExpectation(expected: CaseExpectation, result: AdmitResult, metrics: string): string[] {
  const failures: string[] = [];
  const status = result.status;
  const calls = result.trace.calls;
  const called = calls.map((s) => s.webhook);
  if (expected.allowed !== undefined && result.allowed !== expected.allowed) {
    failures.push(`allowed: expected ${expected.allowed}, got ${result.allowed}${status ? ` (${status.code} ${status.message})` : ''}`);
  }
  if (expected.code !== undefined && status?.code !== expected.code) failures.push(`code: expected ${expected.code}, got ${status?.code ?? 'none (allowed)'}`);
  if (expected.reason !== undefined && status?.reason !== expected.reason)
    failures.push(`reason: expected ${show(expected.reason)}, got ${show(status?.reason)}`);
  if (expected.message !== undefined && status?.message !== expected.message)
    failures.push(`message: expected ${show(expected.message)}, got ${show(status?.message)}`);
  for (const part of expected.messageContains ?? []) {
    if (!(status?.message ?? '').includes(part)) failures.push(`message: expected to contain ${show(part)}, got ${show(status?.message)}`);
  }
  if (expected.called !== undefined && show(called) !== show(expected.called)) failures.push(`called: expected ${show(expected.called)}, got ${show(called)}`);
  for (const [name, count] of Object.entries(expected.callCounts ?? {})) {
    const actual = called.filter((c) => c === name).length;
    if (actual !== count) failures.push(`callCounts.${name}: expected ${count}, got ${actual}`);
  }
  if (expected.object !== undefined) {
    const mismatch = subsetMismatch(result.object, expected.object);
    if (mismatch) failures.push(`object: ${mismatch}`);
  }
  if (expected.warnings !== undefined && show(result.warnings) !== show(expected.warnings))
    failures.push(`warnings: expected ${show(expected.warnings)}, got ${show(result.warnings)}`);
  for (const [key, value] of Object.entries(expected.auditAnnotations ?? {})) {
    if (result.auditAnnotations[key] !== value)
      failures.push(`auditAnnotations[${show(key)}]: expected ${show(value)}, got ${show(result.auditAnnotations[key])}`);
  }
  const lines = new Set(metrics.split('\n'));
  for (const line of expected.metrics ?? []) if (!lines.has(line)) failures.push(`metrics: no line ${show(line)}`);
  const seen = new Map<string, number>();
  for (const { webhook, request } of expected.sentRequests ?? []) {
    const nth = seen.get(webhook) ?? 0;
    seen.set(webhook, nth + 1);
    const call = calls.filter((s) => s.webhook === webhook)[nth];
    if (!call?.outcome) {
      failures.push(`sentRequests: ${webhook} was called ${nth} time(s), expected a call number ${nth + 1}`);
      continue;
    }
    const mismatch = subsetMismatch(call.outcome.review.request, request);
    if (mismatch) failures.push(`sentRequests ${webhook} #${nth + 1}: ${mismatch}`);
  }
  return failures;
}
