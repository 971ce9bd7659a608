// h.coverage() and the summary a harness leaves for the reporter include the other kinds of webhook its
// capabilities call: the ImagePolicyWebhook backend's reviews (request kind × answer, from h.admit and
// h.imageReview alike, a cached answer not counting) and each CRD's conversion webhook's version pairs (from
// h.convert and the mock API's reads and writes at another version).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHarness, objects, review, sharedAuthority, type Harness, type KubeObject } from '../../lib';
import { COVERAGE_DIR_ENV, readSummaryFiles } from '../../lib/admission-coverage/summary-files';
import { manualClock } from '../../lib/imagepolicy';
import type { MockApi } from '../../lib/mockapi';
import { conversionBackend } from '../conversion/backend';
import { recordingBackend } from '../imagepolicy/helpers';
import { call } from '../mockapi/client';

jest.setTimeout(120_000);

const SERVER = 'https://images.example.com:8443/review';

async function imagePolicyHarness(backend: ReturnType<typeof recordingBackend>, defaultAllow = false): Promise<Harness> {
  const { caBundle } = await sharedAuthority();
  return createHarness({
    seed: 7,
    namespaces: [{ name: 'shop' }],
    imagePolicy: {
      admissionConfig: {
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'AdmissionConfiguration',
        plugins: [
          {
            name: 'ImagePolicyWebhook',
            configuration: { imagePolicy: { kubeConfigFile: '/unused', allowTTL: 50, denyTTL: 50, retryBackoff: 500, defaultAllow } },
          },
        ],
      },
      kubeconfig: {
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'backend', cluster: { server: SERVER, 'certificate-authority-data': caBundle } }],
        users: [{ name: 'apiserver', user: {} }],
        contexts: [{ name: 'default', context: { cluster: 'backend', user: 'apiserver' } }],
        'current-context': 'default',
      },
      target: backend.handler,
      clock: manualClock(),
    },
  });
}

const pod = (name: string, image: string): KubeObject => objects.pod({ name, namespace: 'shop', spec: { containers: [{ name: 'app', image }] } });

describe('ImagePolicyWebhook in h.coverage()', () => {
  it('covers request kind × answer as the backend answered, not what the cache answered', async () => {
    const backend = recordingBackend({ kind: 'allow' });
    const h = await imagePolicyHarness(backend);
    try {
      const label = `ImagePolicyWebhook ${SERVER}`;
      const before = h.coverage();
      expect(before.cells(label)).toHaveLength(9);
      await h.admit(review.create(pod('web', 'nginx:1.27')));
      // The same images again: the cache answers, the backend sees nothing, so UPDATE pods stays uncovered.
      const old = pod('web', 'nginx:1.27');
      expect((await h.imageReview(review.update(old, pod('web', 'nginx:1.27')))).fromCache).toBe(true);
      backend.answer = { kind: 'deny', reason: 'not pinned' };
      await h.imageReview(pod('api', 'redis:latest'));
      backend.answer = { kind: 'http500', text: 'down' };
      const withEphemeral = { ...old, spec: { ...(old.spec as object), ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36' }] } };
      await h.admit(review.update(old, withEphemeral, { subResource: 'ephemeralcontainers' }));
      const summary = h.coverage().summary();
      const backendSummary = summary.webhooks.find((w) => w.type === 'ImagePolicyWebhook');
      expect(backendSummary).toMatchObject({ configuration: SERVER, covered: 3, total: 9 });
      expect(backendSummary?.cells.filter((cell) => cell.covered).map((cell) => cell.key)).toEqual([
        'CREATE pods: allowed',
        'CREATE pods: denied',
        'UPDATE pods/ephemeralcontainers: error',
      ]);
      expect(h.coverage().toTable()).toContain(`\n ${label} |   3/9 |     33.33\n     CREATE pods: error\n     UPDATE pods: allowed`);
      // What h.coverage() returned earlier does not change with later reviews.
      expect(before.summary().covered).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('counts a backend failure let through by defaultAllow as an error answer', async () => {
    const h = await imagePolicyHarness(recordingBackend({ kind: 'http500', text: 'down' }), true);
    try {
      expect(await h.admit(review.create(pod('web', 'nginx:1.27')))).toBeAllowed();
      expect(
        h
          .coverage()
          .summary()
          .webhooks[0]?.cells.filter((cell) => cell.covered)
          .map((cell) => cell.key),
      ).toEqual(['CREATE pods: error']);
    } finally {
      await h.close();
    }
  });
});

function widgetCrd(caBundle: string): Record<string, unknown> {
  const schema = (field: string) => ({
    openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [field]: { type: 'string' } } } } },
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schema('color') },
        { name: 'v1beta1', served: false, storage: false, schema: schema('color') },
        { name: 'v2', served: true, storage: false, schema: schema('colour') },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: { name: 'widgets', namespace: 'ops', path: '/convert' }, caBundle } },
      },
    },
  };
}

const widget = (name: string): KubeObject => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'ops', uid: `uid-${name}` },
  spec: { color: 'red' },
});

describe('conversion webhooks in h.coverage()', () => {
  it('lists each ordered pair of the served versions, covered by h.convert and by a mock API read at another version', async () => {
    const backend = conversionBackend(() => ({ kind: 'ok' }));
    const h = await createHarness({
      manifests: [widgetCrd((await sharedAuthority()).caBundle)],
      target: backend.handler,
      seed: 7,
      mockApi: { namespaces: [{ name: 'ops' }] },
    });
    try {
      const label = 'conversion widgets.stable.example.com';
      expect(
        h
          .coverage()
          .cells(label)
          .map((cell) => cell.key),
      ).toEqual(['v1 to v2', 'v2 to v1']);
      expect((await h.convert(widget('a'), 'v2')).ok).toBe(true);
      expect(h.coverage().summary().webhooks[0]).toMatchObject({
        type: 'conversion',
        name: 'service ops/widgets/convert',
        covered: 1,
        uncovered: ['v2 to v1'],
      });
      // A create at v2 is stored at v1: the mock API converts v2 to v1 through the webhook.
      const created = await call(h.api as MockApi, 'POST', '/apis/stable.example.com/v2/namespaces/ops/widgets', {
        apiVersion: 'stable.example.com/v2',
        kind: 'Widget',
        metadata: { name: 'b' },
        spec: { colour: 'blue' },
      });
      expect(created.status).toBe(201);
      expect(h.coverage().summary().webhooks[0]).toMatchObject({ covered: 2, total: 2, uncovered: [] });
      expect(h.coverage().toTable()).toContain(`\n ${label} |   2/2 |    100.00`);
    } finally {
      await h.close();
    }
  });

  it('leaves its cells in the summary file for the reporter; a harness whose conversion webhook saw nothing writes none', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'coverage-kinds-harness-'));
    const previous = process.env[COVERAGE_DIR_ENV];
    process.env[COVERAGE_DIR_ENV] = dir;
    try {
      const manifests = [widgetCrd((await sharedAuthority()).caBundle)];
      const idle = await createHarness({ manifests, target: conversionBackend(() => ({ kind: 'ok' })).handler, seed: 7 });
      await idle.close();
      expect(readdirSync(dir)).toEqual([]);
      const h = await createHarness({ manifests, target: conversionBackend(() => ({ kind: 'ok' })).handler, seed: 7 });
      await h.convert(widget('a'), 'v2');
      await h.close();
      const [summary] = readSummaryFiles(dir);
      expect(summary?.webhooks.map((w) => [w.type, w.configuration, w.covered, w.total])).toEqual([['conversion', 'widgets.stable.example.com', 1, 2]]);
    } finally {
      if (previous === undefined) delete process.env[COVERAGE_DIR_ENV];
      else process.env[COVERAGE_DIR_ENV] = previous;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
