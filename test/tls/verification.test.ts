import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { CertificateAuthority, createHarness, objects, review, type KeyPair } from '../../lib';
import { configuration } from '../webhooks/manifests';
import { answer, scriptedWebhook } from '../webhooks/handlers';

const webhook = scriptedWebhook((r) => answer(r));

/** A running HTTPS webhook presenting `serving`; the harness reaches it as a URL target. */
async function serve(serving: KeyPair): Promise<{ url: string; close(): Promise<void> }> {
  const server = https.createServer({ key: serving.key, cert: serving.cert }, webhook.handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const manifests = [
  configuration('ValidatingWebhookConfiguration', 'tls', [
    { name: 'svc.example.com', clientConfig: { service: { namespace: 'hooks', name: 'guard', path: '/validate' } } },
  ]),
];

describe('TLS verification (k8s.io/apiserver/pkg/util/webhook/client.go)', () => {
  let ca: CertificateAuthority;
  beforeAll(async () => {
    ca = await CertificateAuthority.create();
  });

  async function callServing(serving: KeyPair, trusted: CertificateAuthority = ca) {
    const server = await serve(serving);
    const h = await createHarness({ target: { url: server.url, ca: trusted.cert }, manifests, seed: 1 });
    try {
      return await h.call('svc.example.com', review.create(objects.pod()));
    } finally {
      await h.close();
      await server.close();
    }
  }

  it('accepts a certificate for name.namespace.svc from the trusted CA', async () => {
    const outcome = await callServing(await ca.issueServing({ hosts: ['guard.hooks.svc'] }));
    expect(outcome).toBeAllowed();
  });

  it('rejects a certificate lacking the service SAN, naming the names it has', async () => {
    const outcome = await callServing(await ca.issueServing({ hosts: ['guard.hooks'], omitLoopback: true }));
    expect(outcome.error?.message).toBe(
      'failed calling webhook "svc.example.com": failed to call webhook: Post "https://guard.hooks.svc:443/validate?timeout=10s": tls: failed to verify certificate: x509: certificate is valid for guard.hooks, not guard.hooks.svc',
    );
    expect(outcome.error?.code).toBe(503);
    expect(outcome.error?.hint).toMatch(/subjectAltName/);
    expect(outcome.error).toMatchObject({ transport: 'tls', certificate: 'name' });
  });

  it('rejects a certificate signed by another CA', async () => {
    const other = await CertificateAuthority.create();
    const outcome = await callServing(await other.issueServing({ hosts: ['guard.hooks.svc'] }));
    expect(outcome.error?.message).toMatch(/: tls: failed to verify certificate: x509: certificate signed by unknown authority$/);
    expect(outcome.error?.hint).toMatch(/caBundle/);
    expect(outcome.error).toMatchObject({ transport: 'tls', certificate: 'unknown-authority' });
  });

  it('rejects an expired certificate', async () => {
    const outcome = await callServing(
      await ca.issueServing({ hosts: ['guard.hooks.svc'], notBefore: new Date('2020-01-01'), notAfter: new Date('2021-01-01') }),
    );
    expect(outcome.error?.message).toMatch(/: tls: failed to verify certificate: x509: certificate has expired or is not yet valid/);
    expect(outcome.error).toMatchObject({ transport: 'tls', certificate: 'expired' });
  });

  it('reports a refused connection as Go does', async () => {
    const server = await serve(await ca.issueServing({ hosts: ['guard.hooks.svc'] }));
    await server.close();
    const h = await createHarness({ target: { url: server.url, ca: ca.cert }, manifests, seed: 1 });
    try {
      const outcome = await h.call('svc.example.com', review.create(objects.pod()));
      expect(outcome.error?.message).toBe(
        `failed calling webhook "svc.example.com": failed to call webhook: Post "https://guard.hooks.svc:443/validate?timeout=10s": dial tcp ${new URL(server.url).host}: connect: connection refused`,
      );
      expect(outcome.error?.transport).toBe('refused');
      expect(outcome.error?.certificate).toBeUndefined();
    } finally {
      await h.close();
    }
  });
});

describe('certificate authority', () => {
  it('issues serving certificates with service, loopback and IP SANs, chained to the CA', async () => {
    const ca = await CertificateAuthority.create();
    const { X509Certificate } = await import('node:crypto');
    const leaf = new X509Certificate((await ca.issueServing({ hosts: ['a.b.svc', '10.0.0.7'] })).cert);
    expect(leaf.subjectAltName?.split(', ').sort()).toEqual(
      ['DNS:a.b.svc', 'DNS:localhost', 'IP Address:10.0.0.7', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1'].sort(),
    );
    expect(leaf.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(leaf.checkIssued(new X509Certificate(ca.cert))).toBe(true);
    expect(Buffer.from(ca.caBundle, 'base64').toString()).toBe(ca.cert);
  });

  it('caches serving certificates per host set', async () => {
    const ca = await CertificateAuthority.create();
    const first = await ca.issueServing({ hosts: ['x.y.svc'] });
    expect(await ca.issueServing({ hosts: ['x.y.svc'] })).toBe(first);
    expect(await ca.issueServing({ hosts: ['z.y.svc'] })).not.toBe(first);
  });

  it('gives each CA a distinct common name', async () => {
    const [a, b] = await Promise.all([CertificateAuthority.create(), CertificateAuthority.create()]);
    expect(a.commonName).not.toBe(b.commonName);
  });

  it('issues client certificates that an mTLS server accepts', async () => {
    const ca = await CertificateAuthority.create();
    const serving = await ca.issueServing({ hosts: ['m.tls.svc'] });
    const client = await ca.issueClient({ commonName: 'kube-apiserver' });
    const server = https.createServer({ ...serving, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      res.end((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject.CN);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get({ host: '127.0.0.1', port, servername: 'm.tls.svc', ca: ca.cert, key: client.key, cert: client.cert, agent: false }, (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve(text));
          })
          .on('error', reject);
      });
      expect(body).toBe('kube-apiserver');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('credentials kube-apiserver presents (k8s.io/apiserver/pkg/util/webhook/authentication.go)', () => {
  it('sends the bearer token and a client certificate to a webhook that requires mTLS', async () => {
    const ca = await CertificateAuthority.create();
    const serving = await ca.issueServing({ hosts: ['guard.hooks.svc'] });
    const seen: { authorization?: string; client?: string }[] = [];
    const server = https.createServer({ ...serving, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      seen.push({ authorization: req.headers.authorization, client: String((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN) });
      webhook.handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const h = await createHarness({
      target: { url, ca: ca.cert },
      manifests,
      seed: 1,
      authority: ca,
      credentials: { token: 's3cret', clientCertificate: true },
    });
    const anonymous = await createHarness({ target: { url, ca: ca.cert }, manifests, seed: 1, authority: ca });
    try {
      expect(await h.call('svc.example.com', review.create(objects.pod()))).toBeAllowed();
      expect(seen).toEqual([{ authorization: 'Bearer s3cret', client: 'kube-apiserver' }]);
      const client = await ca.issueClient({ commonName: 'from-kubeconfig' });
      const tls = { 'client-certificate-data': Buffer.from(client.cert).toString('base64'), 'client-key-data': Buffer.from(client.key).toString('base64') };
      const users = [
        { name: 'guard.hooks.svc:443', user: { token: 'for-guard', ...tls } },
        { name: '*', user: { token: 'anyone', ...tls } },
      ];
      const byHost = await createHarness({ target: { url, ca: ca.cert }, manifests, seed: 1, authority: ca, credentials: { kubeconfig: { users } } });
      try {
        expect(await byHost.call('svc.example.com', review.create(objects.pod()))).toBeAllowed();
      } finally {
        await byHost.close();
      }
      expect(seen.at(-1)).toEqual({ authorization: 'Bearer for-guard', client: 'from-kubeconfig' });
      const refused = await anonymous.call('svc.example.com', review.create(objects.pod()));
      expect(refused.error?.message).toMatch(
        /^failed calling webhook "svc\.example\.com": failed to call webhook: Post "https:\/\/guard\.hooks\.svc:443\/validate\?timeout=10s": /,
      );
    } finally {
      await h.close();
      await anonymous.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
