import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { yaml } from '../yaml';

/** A kubeconfig (clientcmd v1 Config) with one cluster, user and context. */
export interface Kubeconfig {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
  contexts: { name: string; context: { cluster: string; user: string; namespace: string } }[];
  'current-context': string;
  preferences: Record<string, never>;
}

/** Where a webhook finds the mock API: a kubeconfig file, or the in-cluster files and variables. */
export interface ClusterAccess {
  kubeconfig: Kubeconfig;
  /** The kubeconfig written as YAML, for `KUBECONFIG` and `kubectl --kubeconfig`. */
  kubeconfigPath: string;
  /**
   * A directory holding `var/run/secrets/kubernetes.io/serviceaccount/{token,ca.crt,namespace}`, for
   * `@kubernetes/client-node`'s `loadFromCluster(pathPrefix)`.
   */
  inClusterPathPrefix: string;
  /** KUBECONFIG and the in-cluster variables (KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT[_HTTPS]). */
  env: Record<string, string>;
  /** Removes the files. */
  remove(): Promise<void>;
}

const NAME = 'admission-harness';
const SERVICE_ACCOUNT_DIR = 'var/run/secrets/kubernetes.io/serviceaccount';

/** Writes the kubeconfig and service-account files for a client of the API at `origin`, trusting `caPem`. */
export async function writeClusterAccess(origin: string, caPem: string, token: string, namespace: string): Promise<ClusterAccess> {
  const kubeconfig: Kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: NAME, cluster: { server: origin, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: NAME, user: { token } }],
    contexts: [{ name: NAME, context: { cluster: NAME, user: NAME, namespace } }],
    'current-context': NAME,
    preferences: {},
  };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'admission-harness-api-'));
  const kubeconfigPath = path.join(dir, 'kubeconfig.yaml');
  const serviceAccount = path.join(dir, SERVICE_ACCOUNT_DIR);
  await fs.mkdir(serviceAccount, { recursive: true });
  await Promise.all([
    // The token is a credential, however fake: private to the user, as kubectl writes kubeconfigs.
    fs.writeFile(kubeconfigPath, yaml().stringify(kubeconfig), { mode: 0o600 }),
    fs.writeFile(path.join(serviceAccount, 'token'), token, { mode: 0o600 }),
    fs.writeFile(path.join(serviceAccount, 'ca.crt'), caPem),
    fs.writeFile(path.join(serviceAccount, 'namespace'), namespace),
  ]);
  const { hostname, port } = new URL(origin);
  return {
    kubeconfig,
    kubeconfigPath,
    inClusterPathPrefix: dir,
    env: { KUBECONFIG: kubeconfigPath, KUBERNETES_SERVICE_HOST: hostname, KUBERNETES_SERVICE_PORT: port, KUBERNETES_SERVICE_PORT_HTTPS: port },
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}
