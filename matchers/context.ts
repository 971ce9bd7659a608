/** The part of Jest's and Vitest's matcher context the matchers use; both provide it. */
export interface MatcherContext {
  isNot?: boolean | undefined;
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
