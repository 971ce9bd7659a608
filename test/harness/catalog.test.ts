// A harness's CustomResourceDefinitions are its own: the manifests of one harness never change what
// another harness, or the process-wide catalog, serves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review } from '../../lib';
import { defaultCatalog, resourceForKind } from '../../lib/kube/catalog';
import { configuration } from '../webhooks/manifests';

const WIDGET = { group: 'capture.example.com', version: 'v1', kind: 'Widget' };

function widgetsCrd(): Record<string, unknown> {
  const capture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-captures/customresourcedefinitions-create.json'), 'utf8')) as {
    calls: { body: { request: { operation: string; kind: { kind: string }; object: Record<string, unknown> } } }[];
  };
  return capture.calls.find((c) => c.body.request.operation === 'CREATE' && c.body.request.kind.kind === 'CustomResourceDefinition')!.body.request.object;
}

const widgetsWebhook = configuration('ValidatingWebhookConfiguration', 'widgets', [
  {
    name: 'widgets.example.com',
    clientConfig: { url: 'https://widgets.example.com/' },
    rules: [{ operations: ['CREATE'], apiGroups: ['capture.example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
  },
]);

describe('CustomResourceDefinitions in a harness’s manifests', () => {
  it('are served by that harness only: a second harness in the same file does not see them', async () => {
    const first = await createHarness({ manifests: [widgetsCrd(), widgetsWebhook], stubs: { 'widgets.example.com': { respond: { allowed: true } } }, seed: 1 });
    const second = await createHarness({ seed: 2 });
    try {
      expect(first.catalog.resourceForKind(WIDGET)).toMatchObject({ resource: 'widgets', namespaced: true });
      expect(second.catalog.resourceForKind(WIDGET)).toBeUndefined();
      expect(resourceForKind(WIDGET)).toBeUndefined();
      expect(defaultCatalog.resources().some((entry) => entry.group === 'capture.example.com')).toBe(false);

      // A review of the custom kind is built with the harness's catalog, and reaches its webhook.
      const widget = { apiVersion: 'capture.example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: {} };
      const result = await first.admit(review.create(widget, { catalog: first.catalog }));
      expect(result.trace.calls.map((c) => c.webhook)).toEqual(['widgets.example.com']);
      expect(() => review.create(widget)).toThrow('no resource serves capture.example.com/v1 Widget');
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('keep the built-in resources, and what was registered before the harness was made', async () => {
    const h = await createHarness({ manifests: [widgetsCrd()], seed: 3 });
    try {
      expect(h.catalog).not.toBe(defaultCatalog);
      expect(h.catalog.resources().filter((e) => e.group !== 'capture.example.com')).toEqual(defaultCatalog.resources());
      expect(h.catalog.kindFor({ group: 'apps', version: 'v1', resource: 'deployments' }, 'scale')).toEqual({
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
      });
      expect(review.create(objects.pod(), { catalog: h.catalog }).attributes.resource).toEqual({ group: '', version: 'v1', resource: 'pods' });
    } finally {
      await h.close();
    }
  });
});
