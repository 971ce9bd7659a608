import type { RecordedAdmission, RecordedReview } from '../audit/recorded-review';
import type { AdmissionResponse, JsonPatchOperation } from '../kube/admission';
import type { Review } from '../review/review';

/** One webhook's recorded answer within an admission fixture, its patch decoded. */
export interface LoadedAnswer {
  /** As written in the fixture (`configuration/name`, or a name). */
  webhook: string;
  round: 0 | 1;
  response: AdmissionResponse;
  patch: JsonPatchOperation[];
}

/**
 * One fixture document of a file, validated, with what replaying it needs worked out once at load: the
 * Review to send and the recorded patches decoded, so a replay costs the calls alone. Its unit is a
 * call (kind RecordedReview: one webhook's answer) or an admission (kind RecordedAdmission: the whole
 * chain, each webhook's answer).
 */
export interface LoadedFixture {
  /** The file it was read from (joined onto the directory given). */
  file: string;
  /** Its position among the file's YAML documents, from 0: a file may hold a `---` stream. */
  document: number;
  /** For reports and test names: the path under the directory given (or the file as given), `#2` for a file's second document. */
  name: string;
  /** The document as read (YAML 1.1). */
  recorded: RecordedReview | RecordedAdmission;
  /** The recorded request as the harness sends it; the harness gives each call a fresh uid. */
  review: Review;
  /** A RecordedReview's response's patch, decoded; `[]` without a response or a patch, and for an admission. */
  recordedPatch: JsonPatchOperation[];
  /** A RecordedAdmission's recorded answers, in chain order; undefined for a new one and for a RecordedReview. */
  answers?: LoadedAnswer[];
}

/** Whether the fixture records an admission (the whole chain) rather than one call. */
export function isAdmission(fixture: LoadedFixture): fixture is LoadedFixture & { recorded: RecordedAdmission } {
  return fixture.recorded.kind === 'RecordedAdmission';
}

/** The RecordedReview's response; an admission has none of its own. */
export function recordedResponse(fixture: LoadedFixture): AdmissionResponse | undefined {
  return fixture.recorded.kind === 'RecordedReview' ? fixture.recorded.response : undefined;
}

/** A fixture without a recorded answer: replay has nothing to compare with. */
export function isNew(fixture: LoadedFixture): boolean {
  return isAdmission(fixture) ? fixture.recorded.answers === undefined : recordedResponse(fixture) === undefined;
}
