import type { KubeObject } from '../kube/admission';
import type { ConversionError, ConversionOutcome } from './convert-object';

/** What `h.convert` answers: each object at the version asked for, or the first failure, as a LIST meets it. */
export interface ConversionResult {
  /** True when every object converted. */
  ok: boolean;
  /** The objects at the version asked for, in order (those already there unchanged); complete only when `ok`. */
  objects: KubeObject[];
  /** One per ConversionReview sent, in order: kube-apiserver sends one per object and stops at the first failure. */
  outcomes: ConversionOutcome[];
  /** The first failure, with kube-apiserver's text and the Status a client would see. */
  error?: ConversionError;
}
