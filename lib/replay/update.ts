import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Document } from 'yaml';
import type { CallOutcome } from '../call/call-webhook';
import { HarnessError } from '../errors';
import type { AdmissionResponse } from '../kube/admission';
import { isRecord } from '../kube/json';
import { yaml } from '../yaml';
import type { LoadedFixture } from './fixture';
import type { ReplayResult } from './replay-fixture';

/**
 * The response member a fixture records for an answer: the webhook's response as it came, members in
 * the AdmissionResponse's order, its uid the recorded request's (the replay's own uid was a fresh one,
 * and a recording reads as one exchange).
 */
export function recordedResponseOf(fixture: LoadedFixture, outcome: CallOutcome): AdmissionResponse {
  const response = outcome.response;
  if (outcome.error || !response) {
    throw new HarnessError('USAGE', `${fixture.name}: nothing to record: the call failed: ${outcome.error?.message ?? 'no response'}`, 'make the webhook answer validly first');
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

/** The answer an update records for a replay, or why it cannot record one. */
export function answerToRecord(result: ReplayResult): { outcome: CallOutcome } | { why: string } {
  if (result.unmatched) return { why: result.unmatched };
  const failed = result.webhooks.find((w) => w.callError !== undefined);
  if (failed) return { why: `${failed.webhook}: the call failed, so there is no answer to record: ${failed.callError}` };
  if (result.disagreement) return { why: result.disagreement };
  const first = result.webhooks[0];
  return first ? { outcome: first.outcome } : { why: 'no webhook answered' };
}

/**
 * Rewrites the `response` of the fixture's document in `file` with `outcome`'s answer, in place: every
 * other member, comment and document of the file is kept (the file is parsed and written back with
 * the `yaml` package's document model, as YAML 1.1); a document without a response gets one before
 * `limits`, where the format puts it. The file is replaced whole (written aside, then renamed), so an
 * interrupted update never leaves half a fixture. Throws when the document is no longer the fixture's
 * (the file changed since it was loaded).
 */
export function updateFixture(file: string, fixture: LoadedFixture, outcome: CallOutcome): void {
  const response = recordedResponseOf(fixture, outcome);
  const text = readFileSync(file, 'utf8');
  const documents = yaml().parseAllDocuments(text, { version: '1.1' }) as readonly Document.Parsed[];
  const doc = documents[fixture.document];
  const found: unknown = doc?.errors.length === 0 ? doc.toJS() : undefined;
  const request = isRecord(found) && isRecord(found.request) ? found.request : undefined;
  if (!doc || request?.uid !== fixture.recorded.request.uid) {
    throw new HarnessError('USAGE', `${file}: document ${fixture.document + 1} is no longer the fixture that was replayed (request.uid ${JSON.stringify(fixture.recorded.request.uid)}); the file changed since it was loaded`, 'replay again');
  }
  setResponse(doc, response);
  const updated = documents.map((d) => d.toString({ lineWidth: 0 })).join('');
  const aside = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  writeFileSync(aside, updated);
  renameSync(aside, file);
}

function setResponse(doc: Document.Parsed, response: AdmissionResponse): void {
  // No anchors and aliases, as lib/audit/fixture.ts writes fixtures: each reads alone.
  const node = doc.createNode(response, { aliasDuplicateObjects: false });
  if (doc.has('response')) {
    doc.set('response', node);
    return;
  }
  const y = yaml();
  const contents = doc.contents;
  // Checked at load: a fixture document is a mapping.
  if (!y.isMap(contents)) throw new HarnessError('USAGE', 'a RecordedReview document is a mapping');
  const limits = contents.items.findIndex((item) => y.isScalar(item.key) && item.key.value === 'limits');
  // A created pair has no source range yet, which the parsed document's item type insists on.
  const pair = doc.createPair('response', node) as unknown as (typeof contents.items)[number];
  contents.items.splice(limits < 0 ? contents.items.length : limits, 0, pair);
}
