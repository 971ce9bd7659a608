import { credentialsFor, type AdmissionKubeconfig } from '../../lib/call/credentials';

const user = (token: string) => ({ token });

describe('credentials from the admission kubeconfig (k8s.io/apiserver/pkg/util/webhook/authentication.go)', () => {
  const kubeconfig: AdmissionKubeconfig = {
    users: [
      { name: '*', user: user('star') },
      { name: '*.localhost', user: user('wildcard-localhost') },
      { name: 'localhost', user: user('localhost-match-without-port') },
      { name: 'localhost:443', user: user('localhost-match-with-port') },
      { name: '*.hooks.svc:443', user: user('any-service-in-hooks') },
      { name: 'guard.hooks.svc:8443', user: user('guard-8443') },
    ],
  };

  it.each([
    ['localhost', 443, 'localhost-match-with-port'],
    ['guard.hooks.svc', 8443, 'guard-8443'],
    ['other.hooks.svc', 443, 'any-service-in-hooks'],
    ['api.localhost', 443, 'wildcard-localhost'],
    ['localhost', 8443, 'star'],
    ['webhook.example.com', 443, 'star'],
  ])('%s:%i uses %s', (host, port, token) => {
    expect(credentialsFor(kubeconfig, host, port).bearerToken).toBe(token);
  });

  it('matches host without port (and its suffixes) only for port 443', () => {
    const portless: AdmissionKubeconfig = { users: [{ name: 'webhook.example.com', user: user('portless') }] };
    expect(credentialsFor(portless, 'webhook.example.com', 443).bearerToken).toBe('portless');
    expect(credentialsFor(portless, 'webhook.example.com', 8443)).toEqual({});
  });

  it('falls back to the current context’s user, then to anonymous', () => {
    const contexts: AdmissionKubeconfig = {
      users: [{ name: 'ctx-user', user: user('from-context') }],
      contexts: [{ name: 'c', context: { user: 'ctx-user' } }],
      'current-context': 'c',
    };
    expect(credentialsFor(contexts, 'x.example.com', 443).bearerToken).toBe('from-context');
    expect(credentialsFor({ users: [] }, 'x.example.com', 443)).toEqual({});
  });

  it('reads client certificates from base64 data', () => {
    const config: AdmissionKubeconfig = {
      users: [
        { name: '*', user: { 'client-certificate-data': Buffer.from('CERT').toString('base64'), 'client-key-data': Buffer.from('KEY').toString('base64') } },
      ],
    };
    expect(credentialsFor(config, 'a.b.svc', 443)).toEqual({ clientCertificate: { cert: 'CERT', key: 'KEY' } });
  });
});
