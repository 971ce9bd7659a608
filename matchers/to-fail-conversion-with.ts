import type { ConversionResult } from '../lib/conversion';
import type { AsymmetricMatcherLike, MatcherContext, MatcherResult } from './context';
import { report } from '../lib/outcome/describe';

function asConversionResult(received: unknown): ConversionResult {
  if (typeof received !== 'object' || received === null || !Array.isArray((received as Partial<ConversionResult>).outcomes)) {
    throw new TypeError('toFailConversionWith expects the result of h.convert(objects, toVersion)');
  }
  return received as ConversionResult;
}

/**
 * `h.convert()` results: the conversion failed, its text (kube-apiserver's, as the 500 a client reads carries
 * it) equal to `expected`, containing it, matching the pattern, or satisfying an asymmetric matcher.
 */
export function toFailConversionWith(this: MatcherContext, received: unknown, expected: string | RegExp | AsymmetricMatcherLike): MatcherResult {
  const result = asConversionResult(received);
  const message = result.error?.message;
  const hint = this.utils.matcherHint('toFailConversionWith', 'result', 'text', { isNot: this.isNot });
  const matches = (text: string): boolean =>
    typeof expected === 'string'
      ? text === expected || text.includes(expected)
      : expected instanceof RegExp
        ? expected.test(text)
        : this.equals(text, expected);
  const pass = message !== undefined && matches(message);
  const sent = `Reviews sent: ${result.outcomes.length}`;
  return {
    pass,
    message: () => {
      if (message === undefined) return report(hint, `expected the conversion to fail with ${this.utils.printExpected(expected)}, but it succeeded`, sent);
      const why = pass
        ? `expected the conversion not to fail with ${this.utils.printExpected(expected)}, but it did:`
        : `expected the conversion to fail with ${this.utils.printExpected(expected)}, but it failed with:`;
      return report(hint, `${why}\n  ${this.utils.printReceived(message)}`, `Hint: ${result.error?.hint}`, sent);
    },
  };
}
