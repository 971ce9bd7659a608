import { type ConversionCallDeps, conversionCapability } from '../conversion';
import { mockApiConverter } from '../conversion/mock-api-converter';
import type { ResourceCatalog } from '../kube/catalog';
import type { Capability } from './capability';
import type { Harness } from './types';

/**
 * `h.convert`, and the mock API's reads and writes at another version: the manifests' CRDs converted as
 * kube-apiserver's CRD handler does (lib/conversion), their conversion webhooks served by the target,
 * over the harness's transport, clock and uids.
 */
export function conversion(catalog: ResourceCatalog): Capability<Pick<Harness, 'convert'>> {
  const capability = conversionCapability(catalog);
  // The mock API starts before the targets its conversions call: its converter waits for them.
  const apiConversion = mockApiConverter(capability);
  return {
    clientConfigs: capability.clientConfigs,
    ...(capability.webhooks.length > 0 ? { mockApi: { converter: apiConversion.converter } } : {}),
    start: ({ targets, agents, timeScale, random, lifecycle }) => {
      const deps: ConversionCallDeps = { connection: (webhook) => targets.connection(webhook), agents, timeScale, uuid: () => random.uuid() };
      apiConversion.ready(deps);
      return {
        methods: {
          convert: (objects, toVersion) => {
            lifecycle.assertOpen();
            return capability.convert(objects, toVersion, deps);
          },
        },
        closing: () => apiConversion.close(),
      };
    },
  };
}
