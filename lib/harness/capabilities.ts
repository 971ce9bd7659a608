import type { ResourceCatalog } from '../kube/catalog';
import type { MethodsOfAll } from './capability';
import { conversion } from './conversion';
import { imagePolicy } from './image-policy';
import type { HarnessOptions } from './options';

/**
 * The other kinds of webhook kube-apiserver calls, besides admission webhooks, each a part of the harness
 * of its own (see capability.ts), in the order they start. Adding one is a line here: createHarness
 * starts, composes and closes whatever this lists.
 */
export function harnessCapabilities(options: HarnessOptions, catalog: ResourceCatalog) {
  return [conversion(catalog), imagePolicy(options.imagePolicy)] as const;
}

/** What they add to the Harness. */
export type CapabilityMethods = MethodsOfAll<ReturnType<typeof harnessCapabilities>>;
