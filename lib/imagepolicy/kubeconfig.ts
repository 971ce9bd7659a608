import path from 'node:path';
import { credentialsOf, type KubeconfigUser, type WebhookCredentials } from '../call/credentials';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { parseDocument, readConfigFile } from './config';

/** What the backend's kubeconfig (the plugin's `kubeConfigFile`) tells kube-apiserver. */
export interface BackendConnection {
  /** cluster.server: the URL every ImageReview is POSTed to. */
  server: string;
  /** PEM of certificate-authority(-data), read when asked (a backend the harness serves needs none); empty means the system roots. */
  ca(): string;
  credentials: WebhookCredentials;
}

interface Kubeconfig {
  clusters?: { name?: string; cluster?: Record<string, unknown> }[];
  users?: { name?: string; user?: KubeconfigUser }[];
  contexts?: { name?: string; context?: { cluster?: string; user?: string } }[];
  'current-context'?: string;
}

/** client-go resolves a kubeconfig's file references against the kubeconfig's own directory. */
function relativeTo(dir: string | undefined, file: string): string {
  return dir && !path.isAbsolute(file) ? path.join(dir, file) : file;
}

function withResolvedFiles(user: KubeconfigUser | undefined, dir: string | undefined): KubeconfigUser | undefined {
  if (!user) return user;
  const resolved: KubeconfigUser = { ...user };
  for (const key of ['tokenFile', 'client-certificate', 'client-key'] as const) {
    const value = user[key];
    if (typeof value === 'string') resolved[key] = relativeTo(dir, value);
  }
  return resolved;
}

/**
 * The backend the plugin calls, from its kubeconfig as `webhook.LoadKubeconfig` (k8s.io/apiserver
 * pkg/util/webhook) reads it: the current context's cluster and user.
 */
export function backendConnection(given: string | object): BackendConnection {
  const source = typeof given === 'string' ? given : 'the image policy kubeconfig';
  const dir = typeof given === 'string' ? path.dirname(given) : undefined;
  const config = (
    typeof given === 'string' ? parseDocument(readConfigFile(given, "the image policy backend's kubeconfig"), given) : given
  ) as Kubeconfig | null;
  if (!config || typeof config !== 'object') throw new HarnessError('USAGE', `${source}: expected a kubeconfig (kind: Config)`);
  const contexts = config.contexts ?? [];
  const currentName = config['current-context'];
  const current = contexts.find((c) => c.name === currentName);
  if (!current && contexts.length !== 1) {
    throw new HarnessError(
      'USAGE',
      `${source}: current-context ${JSON.stringify(currentName ?? '')} names no context${didYouMean(
        currentName ?? '',
        contexts.map((c) => c.name ?? ''),
      )}`,
      'set current-context to the context whose cluster is the backend',
    );
  }
  const context = (current ?? contexts[0])?.context ?? {};
  const clusters = config.clusters ?? [];
  const cluster = clusters.find((c) => c.name === context.cluster)?.cluster ?? (clusters.length === 1 ? clusters[0]?.cluster : undefined);
  if (!cluster || typeof cluster.server !== 'string') {
    throw new HarnessError(
      'USAGE',
      `${source}: the current context's cluster ${JSON.stringify(context.cluster ?? '')} has no server${didYouMean(
        context.cluster ?? '',
        clusters.map((c) => c.name ?? ''),
      )}`,
      'give clusters[].cluster.server: https://host:port/path',
    );
  }
  const data = cluster['certificate-authority-data'];
  const file = cluster['certificate-authority'];
  const ca = (): string => {
    if (typeof data === 'string') return Buffer.from(data, 'base64').toString('utf8');
    if (typeof file === 'string') return readConfigFile(relativeTo(dir, file), "the backend kubeconfig's certificate-authority");
    return '';
  };
  const user = (config.users ?? []).find((u) => u.name === context.user)?.user;
  return { server: cluster.server, ca, credentials: credentialsOf(withResolvedFiles(user, dir)) };
}
