/** The part of Jest's and Vitest's matcher context the matchers use; both provide it. */
export interface MatcherContext {
  isNot?: boolean | undefined;
  /** The runner's deep equality, which honours asymmetric matchers (`expect.arrayContaining`, …) on either side. */
  equals(received: unknown, expected: unknown): boolean;
  utils: {
    matcherHint(name: string, received?: string, expected?: string, options?: { isNot?: boolean | undefined }): string;
    printExpected(value: unknown): string;
    printReceived(value: unknown): string;
  };
}

export interface MatcherResult {
  pass: boolean;
  message(): string;
}

/** What `expect.any()`, `expect.objectContaining()` and friends return, in Jest and Vitest alike. */
export interface AsymmetricMatcherLike {
  asymmetricMatch(other: unknown): boolean;
}

function isAsymmetric(value: unknown): value is AsymmetricMatcherLike {
  return typeof value === 'object' && value !== null && typeof (value as Partial<AsymmetricMatcherLike>).asymmetricMatch === 'function';
}

/** Whether an expected value holds an asymmetric matcher anywhere, which makes a structural diff against it meaningless. */
export function containsAsymmetric(value: unknown): boolean {
  if (isAsymmetric(value)) return true;
  if (Array.isArray(value)) return value.some(containsAsymmetric);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(containsAsymmetric);
  return false;
}

/**
 * A result that fails whether or not the matcher was negated: for when there is nothing to judge
 * (the call failed, or the patch does not apply), so `.not` must not read the absence as a pass.
 */
export function inconclusive(context: MatcherContext, message: () => string): MatcherResult {
  return { pass: context.isNot === true, message };
}
