/** A hash of every byte that goes into dist. */
export function sourceHash(): string;
/** Whether the build recorded in `stamp` (dist/.build-hash by default) is of the sources as they are now. */
export function isCurrent(stamp?: string): boolean;
export const LICENSES_FILE: string;
