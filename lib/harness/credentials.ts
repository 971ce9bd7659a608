import type { CallableWebhook } from '../call/call-webhook';
import { credentialsFor, type WebhookCredentials } from '../call/credentials';
import { resolveEndpoint } from '../call/endpoint';
import type { WebhookClientConfig } from '../kube/webhook-config';
import type { CertificateAuthority } from '../tls';
import type { HarnessOptions } from './options';

/** What kube-apiserver presents to one webhook: a bearer token, a client certificate, or neither. */
export type CredentialsOf = (callable: CallableWebhook) => WebhookCredentials;

/**
 * The credentials of `HarnessOptions.credentials`: the same token and certificate (`true` issues one
 * from the harness CA, CN `kube-apiserver`) for every webhook, or, with a kubeconfig, the user each
 * webhook's logical host:port selects (service: name.ns.svc:port), as kube-apiserver matches them.
 */
export async function webhookCredentials(given: HarnessOptions['credentials'], authority: CertificateAuthority): Promise<CredentialsOf> {
  const kubeconfig = given && 'kubeconfig' in given ? given.kubeconfig : undefined;
  if (kubeconfig) {
    // Picked (and its files read) once per clientConfig, as kube-apiserver builds one REST client per configuration.
    const picked = new WeakMap<WebhookClientConfig, WebhookCredentials>();
    return (callable) => {
      let found = picked.get(callable.clientConfig);
      if (!found) {
        const { host, port } = resolveEndpoint(callable.clientConfig).address;
        found = credentialsFor(kubeconfig, host, port);
        picked.set(callable.clientConfig, found);
      }
      return found;
    };
  }
  const credentials: WebhookCredentials =
    !given || 'kubeconfig' in given
      ? {}
      : {
          ...(given.token ? { bearerToken: given.token } : {}),
          ...(given.clientCertificate
            ? {
                clientCertificate: given.clientCertificate === true ? await authority.issueClient({ commonName: 'kube-apiserver' }) : given.clientCertificate,
              }
            : {}),
        };
  return () => credentials;
}
