import type { KubeObject } from '../../kube/admission';
import { SeededRandom } from '../../random';
import { asAdmitted } from './admitted';
import { withSeed, type Gen } from './faker';
import type { JsonObject } from './json';
import { deepMerge, type DeepPartial } from './merge';
import { withoutReplacedLists } from './replaced-lists';
import { persist } from '../../registry/strategy/create';

// Objects made without a seed or a SeededRandom draw from one sequence per module registry (one per
// Jest test file), so a file's objects are the same on every run.
const defaultRandom = new SeededRandom(Number(process.env.ADMISSION_HARNESS_SEED ?? 1));

/** How an object is generated. */
export interface GenerateOptions {
  /** The object's seed: the same seed gives the same object. Drawn from `random` when absent. */
  seed?: number;
  /** Where the seed is drawn from (a harness's random, say); a per-file sequence by default. */
  random?: SeededRandom;
  /**
   * The object as the apiserver stored it (uid, resourceVersion, generation, creationTimestamp,
   * allocated fields such as a Service's clusterIP): what UPDATE and DELETE requests carry as
   * oldObject. CREATE objects have none of these, so the default is false.
   */
  stored?: boolean;
  /**
   * Built-in admission plugins the cluster runs without (createHarness's `plugins.disable`): the
   * object is shaped as the others left it. A default cluster runs them all, so a pod comes with the
   * ServiceAccount plugin's token volume and DefaultTolerationSeconds' tolerations.
   */
  plugins?: { disable?: readonly string[] };
}

/** Shorthands every kind accepts next to its overrides. */
export interface Shortcuts {
  name?: string;
  namespace?: string;
  /** The object's labels, replacing the generated ones (`metadata.labels` in the overrides merges instead). */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Shorthands of the kinds that run pods. */
export interface WorkloadShortcuts extends Shortcuts {
  /** The containers, one per image, written as a minimal manifest writes them (name and image). */
  images?: string[];
}

/** What `objects.<kind>()` takes: shorthands plus any part of the object, deep-merged into the generated one. */
export type ObjectInput<T, S extends Shortcuts = Shortcuts> = DeepPartial<T> & S;

const SHORTCUTS = new Set(['name', 'namespace', 'labels', 'annotations', 'images', 'random']);

export function seedOf(options: GenerateOptions): number {
  return options.seed ?? (options.random ?? defaultRandom).int(2 ** 31);
}

/** metadata from the generated name, namespace and labels, with the user's shorthands winning. */
export function metadataOf(
  shortcuts: Shortcuts,
  generated: { name: string; namespace?: string | undefined; labels?: JsonObject; annotations?: JsonObject },
): JsonObject {
  const annotations = shortcuts.annotations ?? generated.annotations;
  const labels = shortcuts.labels ?? generated.labels;
  const namespace = shortcuts.namespace ?? generated.namespace;
  return {
    name: shortcuts.name ?? generated.name,
    ...(namespace === undefined ? {} : { namespace }),
    ...(labels ? { labels } : {}),
    ...(annotations ? { annotations } : {}),
  };
}

/** Defaults, then storage when asked for: the last steps every generated object goes through. */
function finish(object: JsonObject, gen: Gen, options: GenerateOptions): JsonObject {
  const defaulted = asAdmitted(object, options.plugins);
  return options.stored ? persist(defaulted, gen, false) : defaulted;
}

/** `objects.<kind>(overrides?, options?)`: a seeded object of kind `T`. */
export type ObjectGenerator<T, S extends Shortcuts = Shortcuts, O extends GenerateOptions = GenerateOptions> = (
  input?: ObjectInput<T, S>,
  options?: O,
) => T & KubeObject;

/**
 * `objects.<kind>` from a manifest builder: seeds the generation, builds the manifest from the
 * shorthands, merges the overrides (a describing list given leaves the generated lists beside it
 * out: replaced-lists.ts), applies the API defaults and stores the object when asked.
 */
export function generator<T, S extends Shortcuts = Shortcuts, O extends GenerateOptions = GenerateOptions>(
  build: (gen: Gen, shortcuts: S, options: O) => JsonObject,
): ObjectGenerator<T, S, O> {
  return (input = {} as ObjectInput<T, S>, options = {} as O) => {
    const entries = Object.entries(input);
    const shortcuts = Object.fromEntries(entries.filter(([key]) => SHORTCUTS.has(key))) as S;
    const overrides = Object.fromEntries(entries.filter(([key]) => !SHORTCUTS.has(key)));
    // The seed source may come with the shorthands, as `objects.pod({ random })` always allowed.
    const random = (shortcuts as { random?: SeededRandom }).random;
    return withSeed(seedOf({ ...options, random: options.random ?? random }), (gen) => {
      const manifest = withoutReplacedLists(build(gen, shortcuts, options), overrides);
      return finish(deepMerge(manifest, overrides), gen, options) as T & KubeObject;
    });
  };
}
