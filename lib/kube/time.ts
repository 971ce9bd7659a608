/**
 * The harness clock. Generated objects must be identical for one seed on every run, so no time is
 * read from the system: "now" is this instant, and stored objects were created before it.
 */
export const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);

/** A metav1.Time as the apiserver writes it: RFC 3339, whole seconds, UTC. */
export function timestamp(millis: number): string {
  return new Date(Math.floor(millis / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
