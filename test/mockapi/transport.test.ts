import { execFile } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { createHarness } from '../../lib/harness';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { objects, review } from '../../lib/review';
import { CertificateAuthority } from '../../lib/tls';

/** A GET over real TLS, trusting only `ca`: the way any process outside msw's reach calls the API. */
function httpsGet(url: string, ca: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca, headers: { Authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('in-process, through msw interception', () => {
  let api: MockApi;
  beforeAll(async () => {
    api = await startMockApi({ seed: 12, namespaces: [{ name: 'team-a', labels: { owner: 'alice' } }] });
  });
  afterAll(() => api.close());

  it('answers plain fetch, which does not trust the harness CA', async () => {
    const response = await fetch(`${api.url}/api/v1/namespaces/team-a`);
    expect(((await response.json()) as { metadata: { labels: Record<string, string> } }).metadata.labels).toEqual({
      owner: 'alice',
      'kubernetes.io/metadata.name': 'team-a',
    });
  });

  it('answers @kubernetes/client-node configured from the kubeconfig file', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const namespace = await kc.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'team-a' });
    expect(namespace.metadata?.labels).toMatchObject({ owner: 'alice' });
  });

  it('lets every other request through, such as the harness calling a webhook', async () => {
    const h = await createHarness({
      target: (_req, res) => {
        let body = '';
        _req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        _req.on('end', () => {
          const { request } = JSON.parse(body) as { request: { uid: string } };
          res.setHeader('Content-Type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: request.uid, allowed: true } }));
        });
      },
      seed: 12,
    });
    try {
      const outcome = await h.call({ type: 'validating' }, review.create(objects.pod({ namespace: 'team-a' })));
      expect(outcome.allowed).toBe(true);
    } finally {
      await h.close();
    }
  });
});

describe('over the loopback HTTPS server', () => {
  let api: MockApi;
  beforeAll(async () => {
    // Without interception every call below really goes over TLS to the server.
    api = await startMockApi({
      seed: 13,
      intercept: false,
      authority: await CertificateAuthority.create(),
      namespaces: [{ name: 'team-a', labels: { owner: 'alice' } }],
    });
  });
  afterAll(() => api.close());

  it('serves HTTPS with a certificate that verifies against the CA, and only that CA', async () => {
    const reply = await httpsGet(`${api.url}/api/v1/namespaces/team-a`, api.ca, api.token);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toMatchObject({ kind: 'Namespace', metadata: { name: 'team-a' } });
    const other = await CertificateAuthority.create();
    await expect(httpsGet(`${api.url}/api/v1/namespaces`, other.cert, api.token)).rejects.toThrow(/certificate/);
  });

  it('drops the connection for an injected network error', async () => {
    api.faults.inject({ networkError: true, times: 1 });
    await expect(httpsGet(`${api.url}/api/v1/namespaces`, api.ca, api.token)).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('answers @kubernetes/client-node from the kubeconfig, and from the in-cluster files and variables', async () => {
    const fromFile = new k8s.KubeConfig();
    fromFile.loadFromFile(api.kubeconfigPath);
    await expect(fromFile.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'team-a' })).resolves.toMatchObject({ metadata: { name: 'team-a' } });

    const saved = { ...process.env };
    Object.assign(process.env, api.env);
    try {
      const inCluster = new k8s.KubeConfig();
      inCluster.loadFromCluster(api.inClusterPathPrefix);
      const list = await inCluster.makeApiClient(k8s.CoreV1Api).listNamespacedConfigMap({ namespace: 'team-a' });
      expect(list.items).toEqual([]);
    } finally {
      process.env = saved;
    }
  });

  it('is reachable from another process given only KUBECONFIG', async () => {
    const script = `
      import * as k8s from '@kubernetes/client-node';
      const kc = new k8s.KubeConfig();
      kc.loadFromDefault();
      const ns = await kc.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'team-a' });
      console.log(ns.metadata.labels.owner);
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, KUBECONFIG: api.kubeconfigPath },
      cwd: process.cwd(),
    });
    expect(stdout.trim()).toBe('alice');
  });

  it('writes the kubeconfig with the server, the CA and the token', () => {
    expect(api.kubeconfig).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'admission-harness', cluster: { server: api.url, 'certificate-authority-data': Buffer.from(api.ca).toString('base64') } }],
      users: [{ name: 'admission-harness', user: { token: api.token } }],
      contexts: [{ name: 'admission-harness', context: { cluster: 'admission-harness', user: 'admission-harness', namespace: 'default' } }],
      'current-context': 'admission-harness',
      preferences: {},
    });
    expect(api.env).toEqual({
      KUBECONFIG: api.kubeconfigPath,
      KUBERNETES_SERVICE_HOST: '127.0.0.1',
      KUBERNETES_SERVICE_PORT: new URL(api.url).port,
      KUBERNETES_SERVICE_PORT_HTTPS: new URL(api.url).port,
    });
  });
});

it('close() stops the server and removes its files', async () => {
  const api = await startMockApi({ seed: 14, intercept: false });
  await httpsGet(`${api.url}/api/v1/namespaces`, api.ca, api.token);
  await api.close();
  await expect(httpsGet(`${api.url}/api/v1/namespaces`, api.ca, api.token)).rejects.toThrow(/ECONNREFUSED/);
  expect(fs.existsSync(api.kubeconfigPath)).toBe(false);
  expect(fs.existsSync(api.inClusterPathPrefix)).toBe(false);
});
