const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * A seeded source of randomness. Every value the harness invents (uids, names) comes from one of
 * these, so a failing test replays exactly from its seed.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1): mulberry32, small and well distributed for test data (not for secrets). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** A random (version 4) UUID, the form kube-apiserver gives every webhook call's `request.uid`. */
  uuid(): string {
    let text = '';
    for (let i = 0; i < 16; i++) {
      let byte = this.int(256);
      if (i === 6) byte = (byte & 0x0f) | 0x40;
      else if (i === 8) byte = (byte & 0x3f) | 0x80;
      if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
      text += HEX[byte];
    }
    return text;
  }

  /** `length` characters of [a-z0-9]: the alphabet of generateName suffixes. */
  suffix(length: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    return Array.from({ length }, () => this.pick([...alphabet])).join('');
  }
}

/** A seed for runs that did not give one; printed with every failure so the run can be replayed. */
export function freshSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** The seed of a run that gave none: `ADMISSION_HARNESS_SEED` (a replay), else a fresh one. */
export function defaultSeed(): number {
  const fromEnv = process.env.ADMISSION_HARNESS_SEED;
  return fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : freshSeed();
}

/** A seed derived from `text` (FNV-1a), for values that must be stable for the same input. */
export function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
