import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Document } from 'yaml';
import type { CallOutcome } from '../call/call-webhook';
import { HarnessError } from '../errors';
import type { RecordedAnswer } from '../audit/recorded-review';
import type { AdmissionResponse } from '../kube/admission';
import { isRecord } from '../kube/json';
import { yaml } from '../yaml';
import { isAdmission, type LoadedFixture } from './fixture';
import type { ReplayResult } from './types';

/**
 * The response member a fixture records for an answer: the webhook's response as it came, members in
 * the AdmissionResponse's order, its uid the recorded request's (the replay's own uid was a fresh one,
 * and a recording reads as one exchange).
 */
export function recordedResponseOf(fixture: LoadedFixture, outcome: CallOutcome): AdmissionResponse {
  const response = outcome.response;
  if (outcome.error || !response) {
    throw new HarnessError(
      'USAGE',
      `${fixture.name}: nothing to record: the call failed: ${outcome.error?.message ?? 'no response'}`,
      'make the webhook answer validly first',
    );
  }
  const { status, patch, patchType, auditAnnotations, warnings } = response;
  return {
    uid: fixture.recorded.request.uid,
    allowed: response.allowed,
    ...(status !== undefined ? { status } : {}),
    ...(patch !== undefined ? { patch } : {}),
    ...(patchType !== undefined ? { patchType } : {}),
    ...(auditAnnotations !== undefined ? { auditAnnotations } : {}),
    ...(warnings !== undefined ? { warnings } : {}),
  };
}

/**
 * What an update writes into a fixture: a call fixture's response, and the webhook it came from when
 * one webhook alone got the request (so a later replay sends it there alone); an admission fixture's
 * answers, every webhook call of the chain in order.
 */
export type Recording = { outcome: CallOutcome; webhook?: string } | { answers: { reference: string; round: 0 | 1; outcome: CallOutcome }[] };

/** The answer an update records for a replay, or why it cannot record one. */
export function answerToRecord(result: ReplayResult): Recording | { why: string } {
  if (result.unmatched) return { why: result.unmatched };
  const calls = result.calls ?? result.webhooks;
  const failed = calls.find((w) => w.outcome.error !== undefined);
  if (failed) return { why: `${failed.outcome.webhook}: the call failed, so there is no answer to record: ${failed.outcome.error?.message ?? ''}` };
  if (result.unit === 'admission') return { answers: (result.calls ?? []).map((c) => ({ reference: c.reference, round: c.round, outcome: c.outcome })) };
  if (result.disagreement) return { why: result.disagreement };
  const first = result.webhooks[0];
  if (!first) return { why: 'no webhook answered' };
  return { outcome: first.outcome, ...(result.webhooks.length === 1 ? { webhook: first.reference } : {}) };
}

/**
 * Rewrites the `response` of a call fixture's document in `file` with the recording's answer (and sets
 * its `webhook`), or the `answers` of an admission fixture's, in place: every other member, comment and
 * document of the file is kept (the file is parsed and written back with the `yaml` package's document
 * model, as YAML 1.1); a missing member is added where the format puts it. The file is replaced whole
 * (written aside, then renamed), so an interrupted update never leaves half a fixture. Throws when the
 * document is no longer the fixture's (the file changed since it was loaded).
 */
export function updateFixture(file: string, fixture: LoadedFixture, recording: Recording): void {
  if (isAdmission(fixture) !== 'answers' in recording)
    throw new HarnessError(
      'USAGE',
      `${fixture.name}: an ${isAdmission(fixture) ? 'admission' : 'call'} fixture records ${isAdmission(fixture) ? 'answers' : 'a response'}`,
    );
  const members: Record<string, unknown> =
    'answers' in recording
      ? { answers: recording.answers.map((a): RecordedAnswer => ({ webhook: a.reference, round: a.round, response: recordedResponseOf(fixture, a.outcome) })) }
      : // A webhook the fixture names already is kept as its author spelled it.
        {
          ...(recording.webhook !== undefined && fixture.recorded.kind === 'RecordedReview' && fixture.recorded.webhook === undefined
            ? { webhook: recording.webhook }
            : {}),
          response: recordedResponseOf(fixture, recording.outcome),
        };
  const text = readFileSync(file, 'utf8');
  const documents = yaml().parseAllDocuments(text, { version: '1.1' }) as readonly Document.Parsed[];
  const doc = documents[fixture.document];
  const found: unknown = doc?.errors.length === 0 ? doc.toJS() : undefined;
  const request = isRecord(found) && isRecord(found.request) ? found.request : undefined;
  if (!doc || request?.uid !== fixture.recorded.request.uid) {
    throw new HarnessError(
      'USAGE',
      `${file}: document ${fixture.document + 1} is no longer the fixture that was replayed (request.uid ${JSON.stringify(fixture.recorded.request.uid)}); the file changed since it was loaded`,
      'replay again',
    );
  }
  for (const [key, value] of Object.entries(members)) setMember(doc, key, value);
  const updated = documents.map((d) => d.toString({ lineWidth: 0 })).join('');
  const aside = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  writeFileSync(aside, updated);
  renameSync(aside, file);
}

/** The member a missing one goes before: `webhook` before the request, the answers before `limits`. */
const BEFORE: Readonly<Record<string, string>> = { webhook: 'request', response: 'limits', answers: 'limits' };

function setMember(doc: Document.Parsed, key: string, value: unknown): void {
  // No anchors and aliases, as lib/audit/fixture.ts writes fixtures: each reads alone.
  const node = doc.createNode(value, { aliasDuplicateObjects: false });
  if (doc.has(key)) {
    doc.set(key, node);
    return;
  }
  const y = yaml();
  const contents = doc.contents;
  // Checked at load: a fixture document is a mapping.
  if (!y.isMap(contents)) throw new HarnessError('USAGE', 'a RecordedReview document is a mapping');
  const before = contents.items.findIndex((item) => y.isScalar(item.key) && item.key.value === BEFORE[key]);
  // A created pair has no source range yet, which the parsed document's item type insists on.
  const pair = doc.createPair(key, node) as unknown as (typeof contents.items)[number];
  contents.items.splice(before < 0 ? contents.items.length : before, 0, pair);
}
