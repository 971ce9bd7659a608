/**
 * `utilerrors.NewAggregate(errs).Error()` as apimachinery prints it: one message alone, several in
 * brackets, repeats dropped.
 */
export function goAggregate(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}
