import type { KubeObject } from '../kube/admission';
import type { ObjectConverter } from '../mockapi/conversion/converter';
import type { ConversionCallDeps, ConversionCapability } from './index';

/**
 * The harness's conversion capability as the mock API's converter. The mock API starts before the targets
 * the webhook calls go to, so the converter waits for `ready(deps)`, called once the harness has them.
 */
export function mockApiConverter(capability: ConversionCapability): { converter: ObjectConverter; ready(deps: ConversionCallDeps): void; close(): void } {
  let provide: (deps: ConversionCallDeps) => void = () => undefined;
  const deps = new Promise<ConversionCallDeps>((resolve) => {
    provide = resolve;
  });
  let closing = false;
  const converter: ObjectConverter = {
    get closing() {
      return closing;
    },
    async convert(object, apiVersion) {
      const result = await capability.convert(object, apiVersion, await deps);
      if (result.error) return { error: { message: result.error.message, status: result.error.status, createStatus: result.error.createStatus } };
      return { object: result.objects[0] as KubeObject };
    },
  };
  return {
    converter,
    ready: (given) => provide(given),
    // Before the harness destroys the connections conversions in flight use: their failures are its shutdown.
    close: () => {
      closing = true;
    },
  };
}
