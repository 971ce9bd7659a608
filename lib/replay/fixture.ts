import type { RecordedReview } from '../audit/recorded-review';
import type { JsonPatchOperation } from '../kube/admission';
import type { Review } from '../review/review';

/**
 * One RecordedReview document of a fixture file, validated, with what replaying it needs worked out
 * once at load: the Review to send and the recorded patch decoded, so a replay costs the call alone.
 */
export interface LoadedFixture {
  /** The file it was read from (joined onto the directory given). */
  file: string;
  /** Its position among the file's YAML documents, from 0: a file may hold a `---` stream. */
  document: number;
  /** For reports and test names: the path under the directory given (or the file as given), `#2` for a file's second document. */
  name: string;
  /** The document as read (YAML 1.1). */
  recorded: RecordedReview;
  /** The recorded request as the harness sends it; the harness gives each call a fresh uid. */
  review: Review;
  /** The recorded response's patch, decoded; `[]` without a response or a patch. */
  recordedPatch: JsonPatchOperation[];
}

/** A fixture without a recorded response: replay has nothing to compare its answer with. */
export function isNew(fixture: LoadedFixture): boolean {
  return fixture.recorded.response === undefined;
}
