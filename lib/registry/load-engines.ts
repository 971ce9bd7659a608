import { lazyModule } from '../lazy-module';

/** The registry's heavy parts; only their types are imported statically, so loading this file loads nothing. */
export type Engines = typeof import('./engines');

const heavy = lazyModule<Engines>(() => import('./engines.js'), {
  message: 'the registry is used before it is ready',
  hint: 'await registry.ready() once before decoding or validating objects',
});

/** Loads the registry's heavy parts once (a chunk of its own in the bundle). Safe to call repeatedly. */
export const loadEngines = (): Promise<Engines> => heavy.load();

/** The loaded parts; the registry's synchronous methods need them loaded beforehand. */
export const engines = (): Engines => heavy.get();
