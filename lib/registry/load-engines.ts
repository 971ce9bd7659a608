import { HarnessError } from '../errors';

/** The registry's heavy parts; only their types are imported statically, so loading this file loads nothing. */
export type Engines = typeof import('./engines');

let loaded: Engines | undefined;
let loading: Promise<Engines> | undefined;

/** Loads the registry's heavy parts once (a chunk of its own in the bundle). Safe to call repeatedly. */
export async function loadEngines(): Promise<Engines> {
  loading ??= import('./engines.js').catch((error: unknown) => {
    // A failed load must not poison every later attempt.
    loading = undefined;
    throw error;
  });
  loaded = await loading;
  return loaded;
}

/** The loaded parts; the registry's synchronous methods need them loaded beforehand. */
export function engines(): Engines {
  if (!loaded) throw new HarnessError('USAGE', 'the registry is used before it is ready', 'await registry.ready() once before decoding or validating objects');
  return loaded;
}
