/*
 * Ages as kube prints them: apimachinery pkg/util/duration/duration.go (HumanDuration) of the time since a
 * timestamp, and printers.go translateTimestampSince (`<unknown>` for a zero time).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** duration.HumanDuration: a duration in milliseconds, rounded down to the two largest units worth showing. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND);
  // A deviation of up to two seconds is tolerated as clock skew and read as "now".
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    return days === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** The instant of a metav1.Time (RFC 3339), or undefined for an unset or unreadable one (Go's zero time). */
export function instantOf(timestamp: unknown): number | undefined {
  if (typeof timestamp !== 'string' || timestamp === '') return undefined;
  const millis = Date.parse(timestamp);
  return Number.isNaN(millis) ? undefined : millis;
}

/** translateTimestampSince: the age of `timestamp` at `now`, `<unknown>` when it is unset. */
export function since(timestamp: unknown, now: number): string {
  const instant = instantOf(timestamp);
  return instant === undefined ? '<unknown>' : humanDuration(now - instant);
}
