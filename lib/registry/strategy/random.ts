import type { SeededRandom } from '../../random';

/**
 * What the storage layer generates for a new object: uids, the generateName suffix, allocations.
 * The review builders pass their faker-backed generator; the dispatcher a SeededRandom (`storageRandom`).
 */
export interface StorageRandom {
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  uuid(): string;
  /** `length` characters of kube's generated-name alphabet. */
  suffix(length: number): string;
}

/** A StorageRandom drawing from `random`. */
export function storageRandom(random: SeededRandom): StorageRandom {
  return {
    int: (min, max) => min + random.int(max - min + 1),
    uuid: () => random.uuid(),
    suffix: (length) => random.suffix(length),
  };
}
