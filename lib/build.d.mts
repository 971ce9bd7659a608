/** A hash of every byte that goes into dist, of the checkout at `root` (this one by default). */
export function sourceHash(root?: string): string;
/** Files generated into the sources' folders, left out of the hash. */
export const GENERATED: readonly string[];
/** Whether the build recorded in `stamp` (dist/.build-hash by default) is of the sources as they are now. */
export function isCurrent(stamp?: string, root?: string): boolean;
/** `--if-changed`: builds only when the stamp is stale, saying so first through `say`; whether it built. */
export function buildIfChanged(options?: { stamp?: string; root?: string; say?: (line: string) => void; run?: () => void }): boolean;
export const LICENSES_FILE: string;
