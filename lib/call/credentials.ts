import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors';
import type { KeyPair } from '../tls';

/** What kube-apiserver presents to one webhook host. */
export interface WebhookCredentials {
  bearerToken?: string;
  clientCertificate?: KeyPair;
}

export interface KubeconfigUser {
  token?: string;
  tokenFile?: string;
  'client-certificate-data'?: string;
  'client-key-data'?: string;
  'client-certificate'?: string;
  'client-key'?: string;
}

/** The part of an admission plugin's kubeconfig (WebhookAdmission `kubeConfigFile`) that matters here. */
export interface AdmissionKubeconfig {
  users?: { name: string; user?: KubeconfigUser }[];
  contexts?: { name: string; context?: { user?: string } }[];
  'current-context'?: string;
}

/** `*.`-prefixed suffixes of `name`, most specific first: a.b.c → *.b.c, *.c. */
function wildcards(name: string): string[] {
  const parts = name.split('.');
  return parts.slice(1).map((_, i) => `*.${parts.slice(i + 1).join('.')}`);
}

function read(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE', `the admission kubeconfig's ${what} ${file}: ${(error as Error).message}`);
  }
}

/** The credentials one kubeconfig user entry gives (its token or tokenFile, its client certificate and key). */
export function credentialsOf(user: KubeconfigUser | undefined): WebhookCredentials {
  if (!user) return {};
  const token = user.token ?? (user.tokenFile ? read(user.tokenFile, 'tokenFile').trim() : undefined);
  const cert = user['client-certificate-data']
    ? Buffer.from(user['client-certificate-data'], 'base64').toString()
    : user['client-certificate']
      ? read(user['client-certificate'], 'client-certificate')
      : undefined;
  const key = user['client-key-data']
    ? Buffer.from(user['client-key-data'], 'base64').toString()
    : user['client-key']
      ? read(user['client-key'], 'client-key')
      : undefined;
  return { ...(token ? { bearerToken: token } : {}), ...(cert && key ? { clientCertificate: { cert, key } } : {}) };
}

/**
 * The user of an admission kubeconfig kube-apiserver picks for `host:port` (k8s.io/apiserver/pkg/util/webhook/authentication.go): exact
 * `host:port`, then its `*.` suffixes, then (port 443 only) `host` and its suffixes, then `*`, then the
 * current context's user, else anonymous.
 */
export function credentialsFor(kubeconfig: AdmissionKubeconfig, host: string, port: number): WebhookCredentials {
  const users = new Map((kubeconfig.users ?? []).map((u) => [u.name, u.user]));
  const hostPort = `${host}:${port}`;
  const candidates = [hostPort, ...wildcards(hostPort), ...(port === 443 ? [host, ...wildcards(host)] : []), '*'];
  const match = candidates.find((name) => users.has(name));
  if (match !== undefined) return credentialsOf(users.get(match));
  const current = (kubeconfig.contexts ?? []).find((c) => c.name === kubeconfig['current-context'])?.context?.user;
  return current !== undefined ? credentialsOf(users.get(current)) : {};
}
