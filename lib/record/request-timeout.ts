/** The longest timeoutSeconds a webhook configuration allows: what kube-apiserver could wait at most. */
export const LONGEST_WEBHOOK_TIMEOUT_MS = 30_000;

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration, in ms: `10s`, `1m30s`, `1.5s`, `500ms`; undefined for anything else. */
export function parseGoDuration(text: string): number | undefined {
  const match = /^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.exec(text);
  if (!match || text.startsWith('-')) return undefined;
  let total = 0;
  for (const part of text.replace(/^\+/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * (UNIT_MS[part[2] as string] as number);
  }
  return total;
}

/**
 * How long to wait for the upstream webhook: kube-apiserver's own deadline, which it sends as
 * `?timeout=` (it stops waiting then, so the proxy need not wait longer), else the longest a
 * configuration allows.
 */
export function upstreamTimeoutMs(requestTarget: string): number {
  const query = requestTarget.includes('?') ? requestTarget.slice(requestTarget.indexOf('?') + 1) : '';
  const given = new URLSearchParams(query).get('timeout');
  const parsed = given === null ? undefined : parseGoDuration(given);
  return parsed !== undefined && parsed > 0 ? parsed : LONGEST_WEBHOOK_TIMEOUT_MS;
}
