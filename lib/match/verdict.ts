import type { Status } from '../kube/admission';

/** A selector's answer, with the sentence that explains it. `error` fails the request if rules match. */
export interface SelectorVerdict {
  matches: boolean;
  why: string;
  error?: Status;
}
