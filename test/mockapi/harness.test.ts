import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, objects, review, type Harness } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';
import { mutating } from '../dispatch/helpers';

/** A webhook with a side effect it does not skip on dryRun: it records every request as a ConfigMap. */
function recordingWebhook(apiUrl: () => string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const sent = JSON.parse(body) as AdmissionReview;
      await fetch(`${apiUrl()}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'seen-' }, data: { uid: sent.request?.uid ?? '' } }),
      });
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: sent.apiVersion, kind: 'AdmissionReview', response: { uid: sent.request?.uid, allowed: true } }));
    });
  };
}

describe('the harness with a mock API (issue 8)', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('reports a write on a dryRun request with the request’s summary and seed', async () => {
    h = await createHarness({
      seed: 77,
      mockApi: true,
      target: recordingWebhook(() => h.api!.url),
      manifests: [mutating('m', { name: 'recorder.example.com', sideEffects: 'NoneOnDryRun' })],
    });
    const outcome = await h.call('recorder.example.com', review.create(objects.pod({ name: 'web-1', namespace: 'default' })).dryRun());
    expect(outcome.writes).toHaveLength(1);
    let message = '';
    try {
      expect(outcome).toCauseNoWrites();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('expected no writes, but the webhook changed the cluster 1 time:');
    expect(message).toMatch(/POST \/api\/v1\/namespaces\/default\/configmaps → 201, during CREATE pods default\/web-1 \(dryRun\) · seed 77/);
  });

  it('namespaceSelectors read the mock API’s namespaces', async () => {
    h = await createHarness({
      seed: 1,
      mockApi: { namespaces: [{ name: 'prod', labels: { env: 'prod' } }] },
      target: recordingWebhook(() => h.api!.url),
      manifests: [mutating('m', { name: 'recorder.example.com', namespaceSelector: { matchLabels: { env: 'prod' } } })],
    });
    expect((await h.admit(review.create(objects.pod({ namespace: 'prod' })))).trace.calls).toHaveLength(1);
    h.namespaces.set({ name: 'prod', labels: { env: 'dev' } });
    expect((await h.admit(review.create(objects.pod({ namespace: 'prod' })))).trace.calls).toHaveLength(0);
  });
});
