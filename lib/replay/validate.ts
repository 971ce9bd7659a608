/**
 * The RecordedReview and RecordedAdmission formats (lib/audit/recorded-review.ts) checked member by member, so a fixture that
 * cannot be replayed is refused at load with the field at fault, rather than replayed as something it
 * is not: a misspelt `respone:` would otherwise make a golden fixture "new" and silently pass.
 */
import {
  RECORDED_ADMISSION_KIND,
  RECORDED_REVIEW_API_VERSION,
  RECORDED_REVIEW_KIND,
  type ObjectOrigin,
  type RecordedAdmission,
  type RecordedReview,
} from '../audit/recorded-review';
import { HarnessError } from '../errors';
import type { AdmissionResponse, JsonPatchOperation } from '../kube/admission';
import { isRecord } from '../kube/json';
import { didYouMean } from '../nearest-name';
import { decodeJsonPatch } from '../patch';
import { reviewFromRequest } from '../review/from-request';
import type { Review } from '../review/review';
import type { LoadedAnswer } from './fixture';
import { matchedProblems } from './matched';

/** One thing wrong with a document: where (members and indices from the root) and what, in kube's field-error words. */
export interface FieldProblem {
  path: (string | number)[];
  message: string;
}

export type CheckedReview =
  | { ok: true; recorded: RecordedReview | RecordedAdmission; review: Review; recordedPatch: JsonPatchOperation[]; answers?: LoadedAnswer[] }
  | { ok: false; problems: FieldProblem[] };

const MEMBERS = ['apiVersion', 'kind', 'source', 'webhook', 'request', 'response', 'limits'];
const ADMISSION_MEMBERS = ['apiVersion', 'kind', 'source', 'request', 'answers', 'limits'];
const ANSWER_MEMBERS = ['webhook', 'round', 'response'];
const AUDIT_SOURCE_MEMBERS = ['from', 'auditID', 'stage', 'requestURI', 'timestamp', 'objectFrom', 'oldObjectFrom'];
const RECORD_SOURCE_MEMBERS = ['from', 'receivedAt', 'path', 'reviewVersion', 'upstream'];
const OBJECTS_SOURCE_MEMBERS = ['from', 'request', 'object', 'oldObject', 'seed'];
const RESPONSE_MEMBERS = ['uid', 'allowed', 'status', 'patch', 'patchType', 'auditAnnotations', 'warnings'];
const STAGES = ['ResponseComplete', 'ResponseStarted'];
const ORIGINS: readonly ObjectOrigin[] = ['requestObject', 'responseObject', 'requestURI', 'none'];
// `review --from-audit` writes audit sources; `record` (lib/record) writes record ones (RecordSource);
// `review … --out` writes objects ones.
const SOURCES = ['audit', 'record', 'objects'];

const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');
const unsupported = (value: unknown, supported: readonly string[]) =>
  `Unsupported value: ${JSON.stringify(value) ?? 'null'}: supported values: ${quoted(supported)}`;
const REQUIRED = 'Required value';

/** Collects problems under one path prefix; the checks below read like the format's description. */
class Problems {
  readonly list: FieldProblem[] = [];

  add(path: (string | number)[], message: string): void {
    this.list.push({ path, message });
  }

  /** Members the format does not have, as kube's strict decoding words it, with the likely intended one. */
  unknown(path: (string | number)[], value: Record<string, unknown>, known: readonly string[]): void {
    for (const key of Object.keys(value)) if (!known.includes(key)) this.add([...path, key], `unknown field ${JSON.stringify(key)}${didYouMean(key, known)}`);
  }

  mapping(path: (string | number)[], value: unknown, required: boolean): value is Record<string, unknown> {
    if (value === undefined || value === null) {
      if (required) this.add(path, REQUIRED);
      return false;
    }
    if (isRecord(value)) return true;
    this.add(path, `Invalid value: ${JSON.stringify(value)}: must be a mapping`);
    return false;
  }

  string(path: (string | number)[], value: unknown, required: boolean): void {
    if (value === undefined || value === null) {
      if (required) this.add(path, REQUIRED);
    } else if (typeof value !== 'string') this.add(path, `Invalid value: ${JSON.stringify(value)}: must be a string`);
  }

  oneOf(path: (string | number)[], value: unknown, supported: readonly string[], required: boolean): void {
    if (value === undefined || value === null) {
      if (required) this.add(path, REQUIRED);
    } else if (typeof value !== 'string' || !supported.includes(value)) this.add(path, unsupported(value, supported));
  }

  strings(path: (string | number)[], value: unknown, required: boolean): void {
    if (value === undefined || value === null) {
      if (required) this.add(path, REQUIRED);
      return;
    }
    if (!Array.isArray(value)) return this.add(path, `Invalid value: ${JSON.stringify(value)}: must be a list of strings`);
    value.forEach((item, i) => this.string([...path, i], item, true));
  }
}

/** Checks one parsed document; on success also gives the Review to send and the recorded patch decoded. */
export function checkRecordedReview(value: unknown): CheckedReview {
  const problems = new Problems();
  if (!isRecord(value)) {
    problems.add([], `Invalid value: ${JSON.stringify(value) ?? 'undefined'}: a RecordedReview document is a mapping`);
    return { ok: false, problems: problems.list };
  }
  // A document of another kind (an AdmissionReview, a manifest) is reported as such, not member by member.
  problems.oneOf(['apiVersion'], value.apiVersion, [RECORDED_REVIEW_API_VERSION], true);
  problems.oneOf(['kind'], value.kind, [RECORDED_REVIEW_KIND, RECORDED_ADMISSION_KIND], true);
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  const admission = value.kind === RECORDED_ADMISSION_KIND;
  problems.unknown([], value, admission ? ADMISSION_MEMBERS : MEMBERS);
  checkSource(problems, value.source);
  if (!admission) problems.string(['webhook'], value.webhook, false);
  const review = checkRequest(problems, value.request);
  const recordedPatch = admission ? [] : checkResponse(problems, ['response'], value.response);
  const answers = admission ? checkAnswers(problems, value.answers) : undefined;
  problems.strings(['limits'], value.limits, true);
  if (problems.list.length > 0 || !review) return { ok: false, problems: problems.list };
  return { ok: true, recorded: value as unknown as RecordedReview | RecordedAdmission, review, recordedPatch, ...(answers ? { answers } : {}) };
}

/** A RecordedAdmission's answers: each webhook's, in the order the chain called them. */
function checkAnswers(problems: Problems, answers: unknown): LoadedAnswer[] | undefined {
  if (answers === undefined || answers === null) return undefined;
  if (!Array.isArray(answers)) {
    problems.add(['answers'], `Invalid value: ${JSON.stringify(answers)}: must be a list of {webhook, round, response}`);
    return undefined;
  }
  return answers.flatMap((answer: unknown, i): LoadedAnswer[] => {
    const at = ['answers', i];
    if (!problems.mapping(at, answer, true)) return [];
    problems.unknown(at, answer, ANSWER_MEMBERS);
    problems.string([...at, 'webhook'], answer.webhook, true);
    if (answer.round !== undefined && answer.round !== 0 && answer.round !== 1)
      problems.add([...at, 'round'], `Unsupported value: ${JSON.stringify(answer.round)}: supported values: 0, 1`);
    if (answer.response === undefined || answer.response === null) problems.add([...at, 'response'], REQUIRED);
    const patch = checkResponse(problems, [...at, 'response'], answer.response);
    return [{ webhook: String(answer.webhook), round: answer.round === 1 ? 1 : 0, response: answer.response as AdmissionResponse, patch }];
  });
}

function checkSource(problems: Problems, source: unknown): void {
  if (!problems.mapping(['source'], source, true)) return;
  problems.oneOf(['source', 'from'], source.from, SOURCES, true);
  if (source.from === 'record') {
    problems.unknown(['source'], source, RECORD_SOURCE_MEMBERS);
    problems.string(['source', 'receivedAt'], source.receivedAt, true);
    problems.string(['source', 'path'], source.path, true);
    problems.oneOf(['source', 'reviewVersion'], source.reviewVersion, ['v1', 'v1beta1'], true);
    problems.string(['source', 'upstream'], source.upstream, false);
    return;
  }
  if (source.from === 'objects') {
    problems.unknown(['source'], source, OBJECTS_SOURCE_MEMBERS);
    problems.string(['source', 'request'], source.request, true);
    problems.string(['source', 'object'], source.object, false);
    problems.string(['source', 'oldObject'], source.oldObject, false);
    if (typeof source.seed !== 'number' || !Number.isInteger(source.seed))
      problems.add(['source', 'seed'], source.seed === undefined ? REQUIRED : `Invalid value: ${JSON.stringify(source.seed)}: must be an integer`);
    return;
  }
  if (source.from !== 'audit') return;
  problems.unknown(['source'], source, AUDIT_SOURCE_MEMBERS);
  problems.string(['source', 'auditID'], source.auditID, true);
  problems.oneOf(['source', 'stage'], source.stage, STAGES, true);
  problems.string(['source', 'requestURI'], source.requestURI, true);
  problems.string(['source', 'timestamp'], source.timestamp, false);
  problems.oneOf(['source', 'objectFrom'], source.objectFrom, ORIGINS, true);
  problems.string(['source', 'oldObjectFrom'], source.oldObjectFrom, false);
}

// reviewFromRequest words its errors `<where>: request.<field>: <what>`; this `where` is cut off again.
const WHERE = 'fixture';

/** The request as reviewFromRequest reads it (operation, kind, resource…), plus what replay itself relies on. */
function checkRequest(problems: Problems, request: unknown): Review | undefined {
  if (!problems.mapping(['request'], request, true)) return undefined;
  // The response written on update echoes it, as a webhook's response echoes the request's uid.
  problems.string(['request', 'uid'], request.uid, true);
  for (const member of ['object', 'oldObject', 'options']) {
    const object = request[member];
    if (object !== undefined && object !== null && !isRecord(object))
      problems.add(['request', member], `Invalid value: ${JSON.stringify(object)}: must be an object or null`);
  }
  for (const { member, message } of matchedProblems(request)) problems.add(['request', member], message);
  try {
    return reviewFromRequest(request, WHERE);
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    const text = error.message.startsWith(`${WHERE}: `) ? error.message.slice(WHERE.length + 2) : error.message;
    const field = /^request\.([A-Za-z]+): ([\s\S]*)$/.exec(text);
    if (field) problems.add(['request', field[1] as string], field[2] as string);
    else problems.add(['request'], text);
    return undefined;
  }
}

/** The response as kube-apiserver would have accepted it from a webhook; returns its patch decoded. */
function checkResponse(problems: Problems, at: (string | number)[], response: unknown): JsonPatchOperation[] {
  if (!problems.mapping([...at], response, false)) return [];
  problems.unknown([...at], response, RESPONSE_MEMBERS);
  problems.string([...at, 'uid'], response.uid, false);
  if (typeof response.allowed !== 'boolean')
    problems.add(
      [...at, 'allowed'],
      response.allowed === undefined || response.allowed === null ? REQUIRED : `Invalid value: ${JSON.stringify(response.allowed)}: must be true or false`,
    );
  if (problems.mapping([...at, 'status'], response.status, false)) {
    const { code, message, reason } = response.status;
    if (code !== undefined && !Number.isInteger(code)) problems.add([...at, 'status', 'code'], `Invalid value: ${JSON.stringify(code)}: must be an integer`);
    problems.string([...at, 'status', 'message'], message, false);
    problems.string([...at, 'status', 'reason'], reason, false);
  }
  problems.strings([...at, 'warnings'], response.warnings, false);
  if (problems.mapping([...at, 'auditAnnotations'], response.auditAnnotations, false)) {
    for (const [key, value] of Object.entries(response.auditAnnotations)) problems.string([...at, 'auditAnnotations', key], value, true);
  }
  problems.string([...at, 'patchType'], response.patchType, false);
  const patch = response.patch;
  if (patch === undefined || patch === null || patch === '') return [];
  if (typeof patch !== 'string') {
    problems.add([...at, 'patch'], `Invalid value: ${JSON.stringify(patch)}: must be a string (base64 of a JSON Patch)`);
    return [];
  }
  // Go's base64.StdEncoding, which decodes the []byte member, accepts padded standard base64 only.
  if (patch.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(patch)) {
    problems.add([...at, 'patch'], 'Invalid value: not base64 (the JSON Patch is written base64-encoded, as a webhook sends it)');
    return [];
  }
  const decoded = decodeJsonPatch(Buffer.from(patch, 'base64'));
  if (!decoded.ok) {
    problems.add([...at, 'patch'], `Invalid value: not a JSON Patch: ${decoded.error}`);
    return [];
  }
  // kube-apiserver refuses a v1 response whose patch is not declared JSONPatch (lib/call/call-webhook.ts).
  if (decoded.ops.length > 0 && response.patchType !== 'JSONPatch') {
    problems.add(
      [...at, 'patchType'],
      response.patchType === undefined || response.patchType === null
        ? `${REQUIRED}: "JSONPatch" with a patch`
        : unsupported(response.patchType, ['JSONPatch']),
    );
  }
  return decoded.ops as unknown as JsonPatchOperation[];
}
