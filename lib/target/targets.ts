import type { CallableWebhook } from '../call/call-webhook';
import { resolveEndpoint, type Route } from '../call/endpoint';
import type { WebhookEntry } from '../config/load';
import type { WebhookClientConfig } from '../kube/webhook-config';
import { HarnessError } from '../errors';
import { createStub, type StubBehavior, type StubServer } from '../stub';
import { serviceDnsNames, type CertificateAuthority } from '../tls';
import type { InProcessApp } from './adapt';
import { startCommand, type CommandTarget, type RunningCommand, type TargetExit } from './command';
import { serveInProcess } from './in-process';

/** A webhook already running somewhere the harness can reach over HTTPS. */
export interface UrlTarget {
  /** Base URL, e.g. `https://127.0.0.1:8443`; each webhook's own path is appended. */
  url: string;
  /** PEM CA the server's certificate chains to; the manifest's caBundle, then system roots otherwise. */
  ca?: string;
}

export type Target = InProcessApp | UrlTarget | CommandTarget;

/** Where each webhook's calls go, and with which CA they are verified. */
export interface Targets {
  connection(webhook: Pick<CallableWebhook, 'name' | 'clientConfig'>): Promise<{ route: Route; ca: string }>;
  stub(name: string): StubServer | undefined;
  /** For a command target: how its process ended, if it did (see RunningCommand.exited). */
  targetExit(): Promise<TargetExit | undefined>;
  close(): Promise<void>;
}

export function isUrlTarget(target: unknown): target is UrlTarget {
  return typeof target === 'object' && target !== null && typeof (target as UrlTarget).url === 'string';
}

export function isCommandTarget(target: unknown): target is CommandTarget {
  return typeof target === 'object' && target !== null && typeof (target as CommandTarget).command === 'string';
}

/** Hosts the serving certificate must carry so every configured clientConfig verifies. */
function servingHosts(clientConfigs: readonly WebhookClientConfig[]): string[] {
  return clientConfigs.flatMap((clientConfig) => {
    const { service, url } = clientConfig;
    if (service) return serviceDnsNames(service.name, service.namespace);
    if (url) {
      try {
        return [resolveEndpoint(clientConfig).verifyName];
      } catch {
        return [];
      }
    }
    return [];
  });
}

/**
 * Starts what the webhooks' clientConfigs point at: the user's target (served in-process, or reached
 * at its URL) and a stub server per stubbed webhook, all presenting certificates of the harness CA for
 * the names kube-apiserver verifies. Host, path and SNI stay as configured; only the socket moves.
 */
export async function startTargets(options: {
  target: Target | undefined;
  stubs: Record<string, StubBehavior>;
  webhooks: readonly WebhookEntry[];
  authority: CertificateAuthority;
  timeScale: number;
  /** Environment for a command target (the mock API's KUBECONFIG and service variables). */
  env?: Record<string, string>;
  /** clientConfigs of the other webhooks kube-apiserver calls at the target (CRD conversion webhooks). */
  clientConfigs?: readonly WebhookClientConfig[];
}): Promise<Targets> {
  const { target, stubs, webhooks, authority, timeScale } = options;
  const unknownStubs = Object.keys(stubs).filter((name) => !webhooks.some((w) => w.spec.name === name));
  if (unknownStubs.length > 0) {
    throw new HarnessError(
      'WEBHOOK_NOT_FOUND',
      `stubs for webhooks the manifests do not declare: ${unknownStubs.join(', ')}`,
      'stub webhooks by the names in the configurations',
    );
  }
  const needsTarget = webhooks.filter((w) => !(w.spec.name in stubs)).map((w) => w.spec.name);
  if (!target && needsTarget.length > 0) {
    throw new HarnessError('TARGET_INVALID', `no target for ${needsTarget.join(', ')}`, 'pass `target` (your webhook) or a stub for each of these webhooks');
  }

  const needsServing = (target && !isUrlTarget(target)) || Object.keys(stubs).length > 0;
  const serving = needsServing
    ? await authority.issueServing({ hosts: servingHosts([...webhooks.map((w) => w.spec.clientConfig), ...(options.clientConfigs ?? [])]) })
    : undefined;
  const servers: { close(): Promise<void> }[] = [];
  try {
    let base: { route: Route; ca: string } | undefined;
    let command: RunningCommand | undefined;
    if (target && isUrlTarget(target)) {
      const { address } = resolveEndpoint({ url: target.url });
      base = { route: () => address, ca: target.ca ?? '' };
    } else if (target && serving) {
      const started = isCommandTarget(target)
        ? await startCommand({ ...target, env: { ...options.env, ...target.env } }, serving, authority.cert)
        : await serveInProcess(target, serving);
      servers.push(started);
      if ('exited' in started) command = started;
      const address = 'address' in started ? started.address : { host: started.host, port: started.port };
      base = { route: () => address, ca: authority.cert };
    }
    // A URL target without its own CA is verified against each webhook's caBundle, decoded once.
    const bundled = new WeakMap<WebhookClientConfig, { route: Route; ca: string }>();
    const stubServers = new Map<string, StubServer>();
    for (const [name, behavior] of Object.entries(stubs)) {
      const server = createStub(behavior, serving as NonNullable<typeof serving>, timeScale);
      servers.push(server);
      stubServers.set(name, server);
    }
    // A started stub's connection, kept: every call of an admission asks for it.
    const stubConnections = new Map<string, { route: Route; ca: string }>();
    return {
      async connection(webhook) {
        const known = stubConnections.get(webhook.name);
        if (known) return known;
        const stubbed = stubServers.get(webhook.name);
        if (stubbed) {
          await stubbed.ready();
          // The route reads the address per call: it follows the stub's behavior (black hole, refused port).
          const connection = { route: () => stubbed.address, ca: authority.cert };
          stubConnections.set(webhook.name, connection);
          return connection;
        }
        if (!base) throw new HarnessError('TARGET_INVALID', `no target for ${webhook.name}`, 'pass `target` or stub the webhook');
        const { caBundle } = webhook.clientConfig;
        if (base.ca || !caBundle) return base;
        let withBundle = bundled.get(webhook.clientConfig);
        if (!withBundle) {
          withBundle = { route: base.route, ca: Buffer.from(caBundle, 'base64').toString('utf8') };
          bundled.set(webhook.clientConfig, withBundle);
        }
        return withBundle;
      },
      stub: (name) => stubServers.get(name),
      targetExit: async () => command?.exited(),
      close: async () => {
        await Promise.all(servers.map((s) => s.close()));
      },
    };
  } catch (error) {
    await Promise.all(servers.map((s) => s.close()));
    throw error;
  }
}
