import { ConversionCoverage } from '../admission-coverage/kind-coverage';
import { type ConversionCallDeps, type ConversionCapability, conversionCapability } from '../conversion';
import { mockApiConverter } from '../conversion/mock-api-converter';
import { splitApiVersion } from '../kube/api-version';
import type { ResourceCatalog } from '../kube/catalog';
import type { WebhookClientConfig } from '../kube/webhook-config';
import type { Capability } from './capability';
import type { Harness } from './types';

/** How a conversion webhook's summary names where it is served: its url, or its service. */
function clientConfigText(clientConfig: WebhookClientConfig): string {
  if (clientConfig.url !== undefined) return clientConfig.url;
  const service = clientConfig.service;
  return service ? `service ${service.namespace}/${service.name}${service.path ?? ''}` : '';
}

/** Per CRD with a conversion webhook, its cells: the versions it serves and stores, from its catalog entries. */
export function conversionCoverage(catalog: ResourceCatalog, capability: ConversionCapability): Map<string, ConversionCoverage> {
  const byCrd = new Map<string, ConversionCoverage>();
  for (const webhook of capability.webhooks) {
    const entries = catalog.resources().filter((entry) => entry.conversion?.crd === webhook.crd);
    const declared = entries[0]?.conversion?.versions ?? [];
    const reachable = [...entries.map((entry) => entry.version), ...entries.flatMap((entry) => (entry.storageVersion ? [entry.storageVersion] : []))];
    byCrd.set(webhook.crd, new ConversionCoverage(webhook.crd, clientConfigText(webhook.clientConfig), declared, reachable));
  }
  return byCrd;
}

/** The capability, each ConversionReview it sends (for h.convert or the mock API) covering its CRD's version pair. */
function recording(capability: ConversionCapability, coverage: Map<string, ConversionCoverage>): ConversionCapability {
  return {
    ...capability,
    async convert(objects, toVersion, deps) {
      const result = await capability.convert(objects, toVersion, deps);
      for (const outcome of result.outcomes) {
        if (outcome.review === undefined) continue;
        coverage.get(outcome.crd)?.record(splitApiVersion(outcome.object.apiVersion ?? '')[1], splitApiVersion(outcome.desiredAPIVersion)[1]);
      }
      return result;
    },
  };
}

/**
 * `h.convert`, and the mock API's reads and writes at another version: the manifests' CRDs converted as
 * kube-apiserver's CRD handler does (lib/conversion), their conversion webhooks served by the target,
 * over the harness's transport, clock and uids; and the coverage of the version pairs they were sent.
 */
export function conversion(catalog: ResourceCatalog): Capability<Pick<Harness, 'convert'>> {
  const plain = conversionCapability(catalog);
  const coverage = conversionCoverage(catalog, plain);
  const capability = recording(plain, coverage);
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
        coverage: [...coverage.values()],
        closing: () => apiConversion.close(),
      };
    },
  };
}
