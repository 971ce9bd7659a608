import https from 'node:https';
import { CallingError } from './call/calling-error';
import { callWebhook, negotiateVersion, type CallableWebhook, type CallOutcome } from './call/call-webhook';
import type { Route } from './call/endpoint';
import { loadManifests, type ManifestInput, type WebhookEntry } from './config/load';
import { HarnessError } from './errors';
import type { AdmissionReview } from './kube/admission';
import type { WebhookType } from './kube/webhook-config';
import { encodeReview } from './review/encode';
import { freshSeed, SeededRandom } from './review/random';
import type { Review } from './review/review';
import { serveInProcess, type ServedTarget } from './target/in-process';
import type { InProcessApp } from './target/adapt';
import { CertificateAuthority, serviceDnsNames, sharedAuthority } from './tls';

/** A webhook already running somewhere the harness can reach over HTTPS. */
export interface UrlTarget {
  /** Base URL, e.g. `https://127.0.0.1:8443`; each webhook's own path is appended. */
  url: string;
  /** PEM CA the server's certificate chains to; the manifest's caBundle, then system roots otherwise. */
  ca?: string;
}

export interface HarnessOptions {
  /** The webhook: an in-process app or handler (served by the harness over TLS), or a running server. */
  target: InProcessApp | UrlTarget;
  /** Webhook configuration manifests (file paths or objects); clientConfig is re-pointed at the target. */
  manifests?: ManifestInput[];
  /** Seed for every generated value (uids, objects); printed in failures. Default: $ADMISSION_HARNESS_SEED or random. */
  seed?: number;
  /** Real time per configured second: 0.01 turns timeoutSeconds 10 into a 100 ms deadline. */
  timeScale?: number;
  /** CA issuing the serving certificate; the process-wide harness CA by default. */
  authority?: CertificateAuthority;
}

/** A webhook addressed without a manifest: defaults as the v1 API would give them. */
export interface InlineWebhook {
  type: WebhookType;
  /** Request path on the target; `/` by default. */
  path?: string;
  name?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
}

/** A call outcome with what a reader needs to replay it. */
export interface HarnessCallOutcome extends CallOutcome {
  seed: number;
}

export interface Harness {
  readonly seed: number;
  /** The webhooks of the manifests, in the order kube-apiserver would consider them. */
  readonly webhooks: readonly WebhookEntry[];
  /** The CA the target's serving certificate chains to. */
  readonly authority: CertificateAuthority;
  /** Base64 PEM of that CA, as a configuration's `caBundle`. */
  readonly caBundle: string;
  /** Calls one webhook with one review, exactly as kube-apiserver would; never throws for webhook errors. */
  call(webhook: string | InlineWebhook, review: Review): Promise<HarnessCallOutcome>;
  /** Stops the target server and closes every connection. */
  close(): Promise<void>;
}

function isUrlTarget(target: HarnessOptions['target']): target is UrlTarget {
  return typeof target === 'object' && target !== null && typeof (target as UrlTarget).url === 'string';
}

function defaultSeed(): number {
  const fromEnv = process.env.ADMISSION_HARNESS_SEED;
  return fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : freshSeed();
}

/** Hosts the serving certificate must carry so every configured clientConfig verifies. */
function servingHosts(entries: readonly WebhookEntry[]): string[] {
  return entries.flatMap(({ spec }) => {
    const { service, url } = spec.clientConfig;
    if (service) return serviceDnsNames(service.name, service.namespace);
    if (url) {
      try {
        return [new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')];
      } catch {
        return [];
      }
    }
    return [];
  });
}

/**
 * Creates a mock apiserver for one webhook target: loads and validates the manifests, issues
 * certificates, serves an in-process app on loopback TLS, and calls it as kube-apiserver does.
 */
export async function createHarness(options: HarnessOptions): Promise<Harness> {
  const seed = options.seed ?? defaultSeed();
  if (!Number.isInteger(seed)) throw new HarnessError('USAGE', `seed must be an integer, got ${String(options.seed ?? process.env.ADMISSION_HARNESS_SEED)}`);
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new HarnessError('USAGE', `timeScale must be a positive number, got ${timeScale}`);
  const webhooks = loadManifests(options.manifests ?? []);
  const authority = options.authority ?? (await sharedAuthority());
  const random = new SeededRandom(seed);

  let served: ServedTarget | undefined;
  let route: Route;
  let ca: string;
  if (isUrlTarget(options.target)) {
    const base = new URL(options.target.url);
    const address = { host: base.hostname.replace(/^\[(.*)\]$/, '$1'), port: base.port ? Number(base.port) : 443 };
    route = () => address;
    ca = options.target.ca ?? '';
  } else {
    const serving = await authority.issueServing({ hosts: servingHosts(webhooks) });
    served = await serveInProcess(options.target, serving);
    const address = { host: served.host, port: served.port };
    route = () => address;
    ca = authority.cert;
  }
  const agent = new https.Agent({ keepAlive: true });
  let closed = false;

  const resolve = (webhook: string | InlineWebhook): CallableWebhook => {
    if (typeof webhook !== 'string') {
      const name = webhook.name ?? `${webhook.type}.harness.local`;
      return {
        name,
        type: webhook.type,
        clientConfig: { url: `https://localhost${webhook.path ?? '/'}` },
        timeoutSeconds: webhook.timeoutSeconds ?? 10,
        admissionReviewVersions: webhook.admissionReviewVersions ?? ['v1'],
      };
    }
    const [configuration, name] = webhook.includes('/') ? webhook.split('/', 2) : [undefined, webhook];
    const found = webhooks.filter((e) => e.spec.name === name && (configuration === undefined || e.configuration === configuration));
    if (found.length === 0) {
      const known = webhooks.map((e) => e.spec.name).join(', ') || '(none: no manifests given)';
      throw new HarnessError('WEBHOOK_NOT_FOUND', `no webhook named ${JSON.stringify(webhook)} in the manifests; known: ${known}`, 'pass the webhook name from the configuration, or an inline { type, path }');
    }
    if (found.length > 1) {
      throw new HarnessError('WEBHOOK_AMBIGUOUS', `${found.length} configurations declare a webhook named ${JSON.stringify(webhook)}`, `address it as "<configuration>/<webhook>", e.g. ${JSON.stringify(`${found[0]?.configuration}/${name}`)}`);
    }
    const entry = found[0] as WebhookEntry;
    const clientConfig = entry.spec.clientConfig;
    return {
      name: entry.spec.name,
      type: entry.type,
      configuration: entry.configuration,
      clientConfig,
      timeoutSeconds: entry.spec.timeoutSeconds ?? 10,
      admissionReviewVersions: entry.spec.admissionReviewVersions ?? [],
    };
  };

  const caFor = (webhook: CallableWebhook): string => {
    if (ca) return ca;
    const bundle = webhook.clientConfig.caBundle;
    return bundle ? Buffer.from(bundle, 'base64').toString('utf8') : '';
  };

  return {
    seed,
    webhooks,
    authority,
    caBundle: authority.caBundle,
    async call(webhook, review) {
      if (closed) throw new HarnessError('HARNESS_CLOSED', 'call() after close()', 'create a new harness per test file and close it in afterAll');
      const callable = resolve(webhook);
      const version = negotiateVersion(callable.admissionReviewVersions);
      const uid = random.uuid();
      if (!version) {
        const sent = encodeReview(review.attributes, 'v1', uid);
        return {
          webhook: callable.name,
          type: callable.type,
          review: sent,
          url: '',
          allowed: false,
          error: new CallingError(callable.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400, 'list "v1" in admissionReviewVersions'),
          warnings: [],
          auditAnnotations: {},
          durationMs: 0,
          seed,
        };
      }
      const sent: AdmissionReview = encodeReview(review.attributes, version, uid);
      const caPem = caFor(callable);
      const outcome = await callWebhook(callable, sent, {
        ca: caPem,
        agent,
        route,
        timeScale,
      });
      return { ...outcome, seed };
    },
    async close() {
      if (closed) return;
      closed = true;
      agent.destroy();
      await served?.close();
    },
  };
}
