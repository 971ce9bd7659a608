/**
 * Formats whole seconds the way Go's time.Duration.String() does ("10s", "1m30s", "1h0m0s"): the
 * form kube-apiserver puts in a webhook URL's `?timeout=` parameter.
 */
export function goDurationSeconds(totalSeconds: number): string {
  const s = Math.max(0, Math.trunc(totalSeconds));
  if (s === 0) return '0s';
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** The `?timeout=` value for a call with `remainingMs` left before its deadline: rounded up to a second. */
export function timeoutParameter(remainingMs: number): string {
  return goDurationSeconds(Math.ceil(remainingMs / 1000));
}
