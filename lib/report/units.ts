// Numbers as the report prints them, rounded so that the same input always writes the same bytes.

/** A percentage for a CSS width: two decimals at most, so the same input writes the same bytes. */
export function cssPercent(fraction: number): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return `${Number((clamped * 100).toFixed(2))}%`;
}

/** Milliseconds as a reader wants them: one decimal. */
export function milliseconds(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}
