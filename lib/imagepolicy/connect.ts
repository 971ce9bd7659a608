import { AgentPool } from '../call/agents';
import { resolveEndpoint } from '../call/endpoint';
import { HarnessError } from '../errors';
import { listenTls } from '../net/loopback-server';
import { toRequestListener, type InProcessApp } from '../target/adapt';
import { startCommand, type CommandTarget } from '../target/command';
import { isCommandTarget, isUrlTarget, type UrlTarget } from '../target/targets';
import type { CertificateAuthority } from '../tls';
import type { BackendContext } from './backend';
import { realClock, type ImagePolicyClock } from './clock';
import { imagePolicySettings, pluginConfiguration, type ImagePolicySettings } from './config';
import { backendConnection } from './kubeconfig';

/** Where the plugin's configuration and backend come from (`createHarness({ imagePolicy })`, `check --image-policy-config`). */
export interface ImagePolicyBackendOptions {
  admissionConfig: string | object;
  /** An in-process app, a running server, or a process the harness starts (as `check --command` does). */
  target: InProcessApp | UrlTarget | CommandTarget;
  kubeconfig?: string | object;
  clock?: ImagePolicyClock;
}

/** The plugin's settings and a live connection to its backend. */
export interface ImagePolicyBackend {
  settings: ImagePolicySettings;
  context: BackendContext;
  close(): Promise<void>;
}

/**
 * Reads the plugin's configuration and the backend's kubeconfig, and connects to the target in the
 * kubeconfig server's place: an in-process app or a started process is served with a certificate of
 * the harness CA for the server's host; a URL target is verified with its own CA or the kubeconfig's.
 */
export async function connectImagePolicyBackend(
  options: ImagePolicyBackendOptions,
  shared: { authority: CertificateAuthority; timeScale: number },
): Promise<ImagePolicyBackend> {
  const { document, source } = pluginConfiguration(options.admissionConfig);
  const settings = imagePolicySettings(document, source);
  const connection = backendConnection(options.kubeconfig ?? settings.kubeConfigFile);
  let logical: ReturnType<typeof resolveEndpoint>;
  try {
    logical = resolveEndpoint({ url: connection.server });
  } catch (error) {
    throw new HarnessError(
      'USAGE',
      `the image policy kubeconfig's server ${JSON.stringify(connection.server)}: ${(error as Error).message}`,
      'give an https URL',
    );
  }
  const target = options.target;
  let address: { host: string; port: number };
  let ca: string;
  let server: { close(): Promise<void> } | undefined;
  if (isUrlTarget(target)) {
    address = resolveEndpoint({ url: target.url }).address;
    ca = target.ca ?? connection.ca();
  } else {
    const serving = await shared.authority.issueServing({ hosts: [logical.verifyName] });
    if (isCommandTarget(target)) {
      const started = await startCommand(target, serving, shared.authority.cert);
      server = started;
      address = started.address;
    } else {
      const started = await listenTls(await toRequestListener(target), serving);
      server = started;
      address = { host: started.host, port: started.port };
    }
    ca = shared.authority.cert;
  }
  const agents = new AgentPool();
  return {
    settings,
    context: {
      server: connection.server,
      route: () => address,
      ca,
      credentials: connection.credentials,
      agents,
      timeScale: shared.timeScale,
      clock: options.clock ?? realClock,
    },
    async close() {
      agents.destroy();
      await server?.close();
    },
  };
}
