import type { Faker, FakerOptions, Randomizer } from '@faker-js/faker';
import { SeededRandom } from '../../random';

type EnglishModule = typeof import('./faker-en');

// The build names the English Faker's own file beside the bundle (tsup's `define`); sources and Jest
// require the package.
declare const __FAKER_EN_FILE__: string | undefined;
const FAKER_EN = typeof __FAKER_EN_FILE__ === 'string' ? __FAKER_EN_FILE__ : '@faker-js/faker/locale/en';

let instance: Faker | undefined;
// The stream the private Faker reads; `withSeed` swaps it, so one instance serves every seed.
let stream = new SeededRandom(0);

/**
 * The English-only Faker, created on first use: its data takes ~40 ms to load, which
 * `import 'admission-harness'` should not pay when no object is generated. It is a private
 * instance (never the shared `faker` singleton a user's tests may seed), reading `stream`.
 */
function englishFaker(): Faker {
  if (instance) return instance;
  // A synchronous require keeps objects.*() synchronous; in the bundle it reads dist/faker-en.cjs.
  const { faker: shared } = require(FAKER_EN) as EnglishModule;
  const FakerClass = shared.constructor as new (options: FakerOptions) => Faker;
  const randomizer: Randomizer = {
    next: () => stream.next(),
    seed: (seed) => {
      stream = new SeededRandom(Array.isArray(seed) ? (seed[0] ?? 0) : seed);
    },
  };
  instance = new FakerClass({ locale: shared.rawDefinitions, randomizer });
  return instance;
}

/**
 * What a generator draws from: Faker plus the few picks Faker has no words for. Everything comes
 * from one seeded stream, so the same seed gives the same object, byte for byte.
 */
export class Gen {
  constructor(readonly faker: Faker) {}

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return this.faker.number.int({ min, max });
  }

  pick<T>(items: readonly T[]): T {
    return this.faker.helpers.arrayElement(items);
  }

  chance(probability: number): boolean {
    return this.faker.datatype.boolean(probability);
  }

  /** A seed for a nested object (an owner, a pod template), so it is stable whatever follows it. */
  seed(): number {
    return this.int(0, 2 ** 31 - 1);
  }

  uuid(): string {
    return this.faker.string.uuid();
  }

  /** `length` characters of the alphabet kube uses for generated names and hashes (no vowels, no 0/1/3). */
  suffix(length: number): string {
    return this.faker.string.fromCharacters('bcdfghjklmnpqrstvwxz2456789', length);
  }

  hex(length: number): string {
    return this.faker.string.hexadecimal({ length, casing: 'lower', prefix: '' });
  }
}

/** Runs `build` with a Gen reading the stream of `seed`; nested calls restore the outer stream. */
export function withSeed<T>(seed: number, build: (gen: Gen) => T): T {
  const faker = englishFaker();
  const outer = stream;
  stream = new SeededRandom(seed);
  try {
    return build(new Gen(faker));
  } finally {
    stream = outer;
  }
}
