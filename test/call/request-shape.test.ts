import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review, type Harness } from '../../lib';
import { configuration } from '../webhooks/manifests';
import { answer, scriptedWebhook } from '../webhooks/handlers';

const capture = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-captures/pods-create.json'), 'utf8')) as {
  calls: { webhook: string; path: string; query: string; headers: Record<string, string>; body: { request: Record<string, unknown> } }[];
};
const capturedService = capture.calls.find((c) => c.webhook === 'validate-svc.capture.local');
if (!capturedService) throw new Error('fixture lacks the service call');

describe('the HTTP request kube-apiserver sends (k8s.io/apiserver/pkg/util/webhook/client.go, k8s.io/client-go/rest/request.go)', () => {
  const webhook = scriptedWebhook((r) => answer(r));
  let h: Harness;

  beforeAll(async () => {
    h = await createHarness({
      target: webhook.handler,
      seed: 11,
      manifests: [
        configuration('ValidatingWebhookConfiguration', 'capture-d-validating-service', [
          {
            name: 'validate-svc.capture.local',
            clientConfig: { service: { namespace: 'capture-system', name: 'capture-webhook', path: '/validate-svc', port: 9444 } },
          },
          { name: 'default-port.example.com', clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/allow/' } } },
          { name: 'url.example.com', clientConfig: { url: 'https://webhook.example.com/validate//deep/' }, timeoutSeconds: 25 },
          { name: 'ip.example.com', clientConfig: { url: 'https://127.0.0.1:9444/validate' } },
        ]),
      ],
    });
  });
  afterAll(() => h.close());

  it('sends the headers, method, path and query a real apiserver sent', async () => {
    const outcome = await h.call('validate-svc.capture.local', review.create(objects.pod({ namespace: 'cap' })));
    expect(outcome).toBeAllowed();
    const seen = webhook.received.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe(`${capturedService.path}?${capturedService.query}`);
    const headerNames = (raw: string[]) => raw.filter((_, i) => i % 2 === 0);
    expect(headerNames(seen.rawHeaders)).toEqual(Object.keys(capturedService.headers));
    for (const name of ['Host', 'User-Agent', 'Accept', 'Content-Type', 'Accept-Encoding']) {
      expect(seen.headers[name.toLowerCase()]).toBe(capturedService.headers[name]);
    }
    expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(seen.review))));
    expect(seen.servername).toBe('capture-webhook.capture-system.svc');
    expect(outcome.url).toBe('https://capture-webhook.capture-system.svc:9444/validate-svc?timeout=10s');
  });

  it('encodes the review with the members, order and nulls of a real apiserver', async () => {
    await h.call('validate-svc.capture.local', review.create(objects.pod({ namespace: 'cap' })));
    const sent = webhook.received.at(-1)!.review;
    expect(Object.keys(sent)).toEqual(['kind', 'apiVersion', 'request']);
    expect(Object.keys(sent.request!)).toEqual(Object.keys(capturedService.body.request));
    expect(sent.request).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      namespace: 'cap',
      operation: 'CREATE',
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
    expect(sent.request!.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('gives every call a fresh uid, derived from the seed', async () => {
    const pod = objects.pod();
    const uids = async (seed: number) => {
      const replay = await createHarness({ target: webhook.handler, seed });
      try {
        const first = await replay.call({ type: 'validating' }, review.create(pod));
        const second = await replay.call({ type: 'validating' }, review.create(pod));
        return [first.review.request!.uid, second.review.request!.uid];
      } finally {
        await replay.close();
      }
    };
    const [a, b] = await uids(5);
    expect(a).not.toBe(b);
    expect(await uids(5)).toEqual([a, b]);
    expect(await uids(6)).not.toEqual([a, b]);
  });

  it('reuses a keep-alive connection for sequential calls, as client-go does', async () => {
    for (let i = 0; i < 10; i++) await h.call('validate-svc.capture.local', review.create(objects.pod()));
    const ports = new Set(webhook.received.slice(-10).map((r) => r.remotePort));
    expect(ports.size).toBe(1);
  });

  it('defaults a service port to 443 and normalises the path like client-go', async () => {
    const outcome = await h.call('default-port.example.com', review.create(objects.pod()));
    expect(outcome).toBeAllowed();
    expect(outcome.url).toBe('https://svc.ns.svc:443/allow?timeout=10s');
    const seen = webhook.received.at(-1)!;
    expect(seen.url).toBe('/allow?timeout=10s');
    expect(seen.headers.host).toBe('svc.ns.svc:443');
  });

  it('keeps a URL host as written, without adding the default port, and sends its timeoutSeconds', async () => {
    const outcome = await h.call('url.example.com', review.create(objects.pod()));
    expect(outcome).toBeAllowed();
    expect(outcome.url).toBe('https://webhook.example.com/validate/deep?timeout=25s');
    const seen = webhook.received.at(-1)!;
    expect(seen.headers.host).toBe('webhook.example.com');
    expect(seen.servername).toBe('webhook.example.com');
  });

  it('sends no SNI for an IP URL and verifies the IP SAN', async () => {
    const outcome = await h.call('ip.example.com', review.create(objects.pod()));
    expect(outcome).toBeAllowed();
    const seen = webhook.received.at(-1)!;
    expect(seen.headers.host).toBe('127.0.0.1:9444');
    expect(seen.servername).toBeFalsy();
  });
});
