/**
 * structured-merge-diff's error lists (typed/helpers.go `ValidationError`, `ValidationErrors`): each
 * error has the field path it happened at; one error prints as `<path>: <message>`, several as
 * `errors:` followed by one indented line each.
 */
export interface SmdError {
  readonly path: string;
  readonly message: string;
}

/** An error at the current position (its path is filled in while unwinding). */
export const smdError = (message: string): SmdError => ({ path: '', message });

/** `WithPrefix`: the errors of a child, placed under the element that leads to it. */
export function prefixed(errors: readonly SmdError[], element: string): SmdError[] {
  return errors.map((error) => ({ path: element + error.path, message: error.message }));
}

/** `ValidationErrors.Error()`. */
export function smdErrorsText(errors: readonly SmdError[]): string {
  const line = (error: SmdError) => (error.path ? `${error.path}: ${error.message}` : error.message);
  if (errors.length === 1) return line(errors[0] as SmdError);
  return ['errors:', ...errors.map((error) => `  ${line(error)}`)].join('\n');
}
