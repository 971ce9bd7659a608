import path from 'node:path';
import { KubeConfig, NetworkingV1Api, type V1Ingress } from '@kubernetes/client-node';
import { createHarness, review, startMockApi, type Harness, type MockApi } from 'admission-harness';
import { createApp, type IngressHosts } from '../src/app';

const WEBHOOK = 'ingress-hosts.example.com';
const MANIFESTS = [path.join(__dirname, '../deploy/webhooks.yaml')];

const ingress = (namespace: string, name: string, ...hosts: string[]) => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { namespace, name },
  spec: {
    rules: hosts.map((host) => ({
      host,
      http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: name, port: { number: 80 } } } }] },
    })),
  },
});

let api: MockApi;
let h: Harness;
let webhook: IngressHosts;

/** Resolves when the webhook's informer has seen `count` more notifications of any kind. */
function informerSees(count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    const seen = () => {
      if (--left > 0) return;
      for (const verb of ['add', 'update', 'delete'] as const) webhook.informer.off(verb, seen);
      resolve();
    };
    for (const verb of ['add', 'update', 'delete'] as const) webhook.informer.on(verb, seen);
  });
}

beforeAll(async () => {
  api = await startMockApi({ seed: 27, namespaces: [{ name: 'shop' }, { name: 'blog' }] });
  // Already in the cluster before the webhook starts: the informer's first list must bring it.
  api.store.put(ingress('shop', 'storefront', 'shop.example.com'));
  const config = new KubeConfig();
  config.loadFromFile(api.kubeconfigPath); // as KUBECONFIG=<file> gives it to the webhook's process
  webhook = createApp(config);
  h = await createHarness({ target: webhook.app, manifests: MANIFESTS, mockApi: api, seed: 27 });
  await webhook.synced;
});
afterAll(async () => {
  await webhook.stop();
  await h.close();
  await api.close();
});

describe('normal behavior', () => {
  it('denies an Ingress whose host an Ingress listed at start already routes', async () => {
    const outcome = await h.call(WEBHOOK, review.create(ingress('blog', 'blog', 'shop.example.com')));
    expect(outcome).toBeDenied({ code: 409, message: 'host "shop.example.com" is already used by Ingress shop/storefront' });
  });

  it('allows a host no other Ingress routes, and an Ingress updated with its own host', async () => {
    expect(await h.call(WEBHOOK, review.create(ingress('blog', 'blog', 'blog.example.com')))).toBeAllowed();
    const storefront = ingress('shop', 'storefront', 'shop.example.com');
    expect(await h.call(WEBHOOK, review.update(storefront, storefront))).toBeAllowed();
  });
});

describe('the informer cache follows the cluster', () => {
  it('sees an Ingress another client creates through the API, and denies its host afterwards', async () => {
    const seen = informerSees(1);
    const config = new KubeConfig();
    config.loadFromFile(api.kubeconfigPath);
    await config.makeApiClient(NetworkingV1Api).createNamespacedIngress({ namespace: 'blog', body: ingress('blog', 'docs', 'docs.example.com') as V1Ingress });
    await seen;
    const outcome = await h.call(WEBHOOK, review.create(ingress('shop', 'docs-copy', 'docs.example.com')));
    expect(outcome).toBeDenied({ code: 409, message: 'host "docs.example.com" is already used by Ingress blog/docs' });
  });

  it('sees a host change and a delete made through the store: the freed host is allowed again', async () => {
    let seen = informerSees(1);
    api.store.put(ingress('shop', 'storefront', 'store.example.com'));
    await seen;
    expect(await h.call(WEBHOOK, review.create(ingress('blog', 'blog-shop', 'shop.example.com')))).toBeAllowed();
    expect(await h.call(WEBHOOK, review.create(ingress('blog', 'blog-store', 'store.example.com')))).toBeDenied({ code: 409 });
    seen = informerSees(1);
    api.store.delete(api.store.entryFor('networking.k8s.io/v1', 'Ingress'), 'shop', 'storefront');
    await seen;
    expect(await h.call(WEBHOOK, review.create(ingress('blog', 'blog-store', 'store.example.com')))).toBeAllowed();
  });
});
