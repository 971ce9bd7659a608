import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { Status } from '../kube/admission';
import { compileSelector, type CompiledSelector, type SelectorError } from '../kube/label-selector';
import { internalError } from '../kube/status';

/** A selector's answer, with the sentence that explains it. `error` fails the request if rules match. */
export interface SelectorVerdict {
  matches: boolean;
  why: string;
  error?: Status;
}

/** The webhook's selector compiled, or the verdict for one kube-apiserver cannot parse (a 500 once the rules match). */
export function compiledOrVerdict(
  selector: LabelSelector | undefined,
  which: 'namespaceSelector' | 'objectSelector',
): { selector: CompiledSelector } | { verdict: SelectorVerdict } {
  try {
    return { selector: compileSelector(selector) };
  } catch (error) {
    const message = (error as SelectorError).message;
    return { verdict: { matches: false, why: `${which} is invalid: ${message}`, error: internalError(message) } };
  }
}
