// toConvertRoundTrip and toFailConversionWith over h.convert, against a conversion webhook served over TLS.
import '../../matchers/jest';
import { createHarness, sharedAuthority, type Harness, type KubeObject } from '../../lib';
import { conversionBackend, type BackendMode } from './backend';

jest.setTimeout(60_000);

const crd = (caBundle: string): Record<string, unknown> => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    ],
    conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://convert.example.com/convert', caBundle } } },
  },
});

const widget: KubeObject = {
  apiVersion: 'stable.example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'ops', uid: 'u1', labels: { app: 'w' } },
  spec: { color: 'red', size: 3 },
};

let mode: BackendMode = { kind: 'ok' };
const backend = conversionBackend(() => mode);
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ manifests: [crd((await sharedAuthority()).caBundle)], target: backend.handler, seed: 3 });
});
afterAll(() => h.close());
beforeEach(() => {
  mode = { kind: 'ok' };
});

describe('toConvertRoundTrip', () => {
  it('passes when v1 → v2 → v1 gives back the object', async () => {
    await expect(h).toConvertRoundTrip(widget, 'v2');
  });

  it('fails, showing what changed, when the way back loses or adds something', async () => {
    mode = { kind: 'change-labels' };
    await expect(h).not.toConvertRoundTrip(widget, 'v2');
    const error = await expect(h)
      .toConvertRoundTrip(widget, 'v2')
      .catch((e: Error) => e);
    expect(String(error)).toContain('/metadata/labels/converted-by');
  });

  it("fails, negated or not, with kube-apiserver's text when a conversion fails", async () => {
    mode = { kind: 'failure', message: 'colour cannot be converted' };
    await expect(expect(h).toConvertRoundTrip(widget, 'v2')).rejects.toThrow(
      'conversion webhook for stable.example.com/v1, Kind=Widget failed: colour cannot be converted',
    );
    await expect(expect(h).not.toConvertRoundTrip(widget, 'v2')).rejects.toThrow('the conversion to v2 failed');
  });
});

describe('toFailConversionWith', () => {
  it('reads the failure text', async () => {
    mode = { kind: 'change-name' };
    const result = await h.convert(widget, 'v2');
    expect(result).toFailConversionWith(
      'conversion webhook for stable.example.com/v1, Kind=Widget returned invalid object: must have the same name: w1 != w1-renamed',
    );
    expect(result).toFailConversionWith(/must have the same name/);
    expect(result).not.toFailConversionWith('must have the same UID');
  });

  it('fails on a conversion that succeeded', async () => {
    const result = await h.convert(widget, 'v2');
    expect(() => expect(result).toFailConversionWith('anything')).toThrow('but it succeeded');
  });
});
