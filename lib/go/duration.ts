/**
 * Go's time.Duration.String() for a duration in nanoseconds: "500ms", "1.5µs", "1s", "2m0s", "1h0m0s";
 * the form kube's configuration errors print durations in.
 */
export function goDuration(nanoseconds: number): string {
  const ns = Math.trunc(nanoseconds);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const u = Math.abs(ns);
  if (u < 1e3) return `${sign}${u}ns`;
  if (u < 1e6) return `${sign}${decimal(u, 1e3)}µs`;
  if (u < 1e9) return `${sign}${decimal(u, 1e6)}ms`;
  const hours = Math.floor(u / 3.6e12);
  const minutes = Math.floor((u % 3.6e12) / 6e10);
  const rest = u % 6e10;
  return `${sign}${hours > 0 ? `${hours}h` : ''}${hours > 0 || minutes > 0 ? `${minutes}m` : ''}${decimal(rest, 1e9)}s`;
}

/** `value / scale` with its fraction's trailing zeros dropped, as Go's fmtFrac writes it. */
function decimal(value: number, scale: number): string {
  const whole = Math.floor(value / scale);
  const fraction = value % scale;
  if (fraction === 0) return String(whole);
  const digits = String(fraction)
    .padStart(String(scale).length - 1, '0')
    .replace(/0+$/, '');
  return `${whole}.${digits}`;
}
