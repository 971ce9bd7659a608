import { randomBytes } from 'node:crypto';
import { http, type RequestHandler } from 'msw';
import { allowEverything, type Authorizer } from '../authz/authorizer';
import { HarnessError } from '../errors';
import type { UserInfo } from '../kube/admission';
import { defaultCatalog, type ResourceCatalog } from '../kube/catalog';
import type { NamespaceSpec } from '../match/namespace-store';
import { freshSeed, SeededRandom } from '../random';
import { Registry } from '../registry';
import { sharedAuthority, type CertificateAuthority } from '../tls';
import { createApiHandler, Delays } from './api-handler';
import { ANONYMOUS } from './authorization';
import { Faults } from './faults';
import { intercept } from './interception';
import { writeClusterAccess, type Kubeconfig } from './kubeconfig';
import { serveLoopback } from './loopback';
import { ClusterNamespaces } from './namespaces';
import { ObjectStore } from './store';
import { WriteLog, type AdmissionSummary } from './write-log';
import { WatchHub, type WatchClock } from './watch/watch-hub';
import { ConversionLayer, type ObjectConverter } from './conversion';
import { AdmissionsInFlight, type WriteAdmitter } from './writes/admission';

export interface MockApiOptions {
  /** Resources served; the built-in API by default. */
  catalog?: ResourceCatalog;
  /** Namespaces besides default, kube-system, kube-public and kube-node-lease. */
  namespaces?: NamespaceSpec[];
  /** CA issuing the loopback server's certificate (and put in the kubeconfig); the process-wide harness CA by default. */
  authority?: CertificateAuthority;
  /** Decides every request's authorization and answers SubjectAccessReviews; allows everything by default. */
  authorizer?: Authorizer;
  /** Who the kubeconfig's token authenticates as. Default: service account `default:webhook`. */
  user?: UserInfo;
  /** Seed for uids and generateName suffixes. */
  seed?: number;
  /**
   * Real time per configured second for injected latency (`latencyMs: 1500` with 0.1 waits 150 ms), the
   * clock of the harness that uses this API: a harness starting the API passes its own.
   */
  timeScale?: number;
  /**
   * Also answer in-process requests to the API's address through msw (https.request, fetch, node-fetch), so
   * clients reach it without trusting its CA. Default true. While on, every other in-process request passes
   * through msw too: it still reaches its server, but msw gives each request a fresh connection (no keep-alive).
   */
  intercept?: boolean;
  /**
   * The timers watches run on (`timeoutSeconds`, periodic bookmarks), scaled by timeScale like injected latency.
   * Node's by default; a test passes its own to end a watch without waiting for real seconds.
   */
  watchClock?: WatchClock;
  /** `--allow-privileged`: false (kube-apiserver's default) refuses privileged containers in the writes' validation. */
  allowPrivileged?: boolean;
  /**
   * Converts custom resources whose CRD has `conversion.strategy: Webhook` (the harness passes its conversion
   * webhook): they are stored at the storage version, and reads, lists, watches and writes at another version
   * send one ConversionReview per object. Without it, every version shows the stored fields as they are.
   */
  converter?: ObjectConverter;
  /**
   * `--watch-cache`: true (kube-apiserver's default) serves lists and watches at another version from a cache
   * each write is converted into as it happens; false converts what each list or watch returns.
   */
  watchCache?: boolean;
  /**
   * Admit every create, update, patch and delete the API serves (from the webhook under test or any other
   * client) through the admission chain of the harness that holds this API — its webhooks, policies and
   * plugins — as kube-apiserver admits its writes. Off by default. A mock API started alone has no chain:
   * its writes are admitted once a harness takes it (`createHarness({ mockApi: api })`).
   */
  admitWrites?: boolean;
}

/** The Kubernetes REST API the webhook under test calls, in memory. */
export interface MockApi {
  /** `https://127.0.0.1:<port>`: the loopback server, and the address msw intercepts in-process. */
  readonly url: string;
  /** The objects; writes through it are not logged (seed the cluster with `store.put`). */
  readonly store: ObjectStore;
  /** The Namespace objects of the store, as namespaceSelectors read them. */
  readonly namespaces: ClusterNamespaces;
  readonly faults: Faults;
  readonly writes: WriteLog;
  /** The open watches; close() ends them. */
  readonly watches: WatchHub;
  /**
   * msw `RequestHandler`s, for a test that runs its own msw server (with `intercept: false`):
   * `server.use(...(api.handlers as RequestHandler[]))`. Typed loosely so the package's types do not
   * depend on msw, which is bundled.
   */
  readonly handlers: readonly unknown[];
  /** PEM of the CA the server's certificate chains to. */
  readonly ca: string;
  /** The bearer token the kubeconfig carries. */
  readonly token: string;
  /** Real time per configured second of injected latency (`MockApiOptions.timeScale`). */
  readonly timeScale: number;
  readonly kubeconfig: Kubeconfig;
  readonly kubeconfigPath: string;
  /** For `@kubernetes/client-node`'s `loadFromCluster(inClusterPathPrefix)`, with `env` applied. */
  readonly inClusterPathPrefix: string;
  /** KUBECONFIG, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT for the webhook's process. */
  readonly env: Readonly<Record<string, string>>;
  /** Whether writes go through the admission chain of the harness that holds the API (`MockApiOptions.admitWrites`). */
  readonly admitsWrites: boolean;
  /** Admits the API's writes with `admitter` (a harness's chain) until the returned function is called. */
  admitWritesWith(admitter: WriteAdmitter): () => void;
  /** Decides authorization and SubjectAccessReviews from now on. */
  authorizer: Authorizer;
  /** Attributes the writes made while `fn` runs to `admission`. */
  during<T>(admission: AdmissionSummary, fn: () => Promise<T>): Promise<T>;
  /** Resolves once the watch cache has converted every write made so far (at once without conversion). */
  settled(): Promise<void>;
  /** Stops interception and the server, cancels pending latency and removes the files. */
  close(): Promise<void>;
}

const DEFAULT_USER: UserInfo = {
  username: 'system:serviceaccount:default:webhook',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
};

/**
 * Starts the mock API: an object store for the catalog's resources, served by one set of msw handlers that are
 * reached two ways — msw interception in this process, and a loopback HTTPS server (certificate from the harness
 * CA) for clients msw cannot intercept and for other processes — plus a kubeconfig and in-cluster files for both.
 */
export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const authority = options.authority ?? (await sharedAuthority());
  const store = new ObjectStore(options.catalog ?? defaultCatalog, new SeededRandom(options.seed ?? freshSeed()));
  const namespaces = new ClusterNamespaces(store);
  namespaces.seed(options.namespaces ?? []);
  const faults = new Faults();
  const writes = new WriteLog();
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new HarnessError('USAGE', `timeScale must be a positive number, got ${String(options.timeScale)}`);
  const delays = new Delays(timeScale);
  const watches = new WatchHub(store, options.watchClock, timeScale);
  const token = randomBytes(24).toString('base64url');
  const user = options.user ?? DEFAULT_USER;
  let authorizer = options.authorizer ?? allowEverything;
  let admitter: WriteAdmitter | undefined;

  const conversion = options.converter && new ConversionLayer(store, { converter: options.converter, watchCache: options.watchCache ?? true });
  const handle = createApiHandler({
    store,
    faults,
    writes,
    delays,
    watches,
    registry: new Registry(store.catalog, { allowPrivileged: options.allowPrivileged ?? false }),
    authorizer: () => authorizer,
    authenticate: (authorization) => (authorization === null ? ANONYMOUS : authorization === `Bearer ${token}` ? user : undefined),
    ...(conversion ? { conversion } : {}),
    ...(options.admitWrites ? { admission: { admitter: () => admitter, inFlight: new AdmissionsInFlight() } } : {}),
  });
  let handlers: RequestHandler[] = [];
  const server = await serveLoopback(() => handlers, await authority.issueServing());
  handlers = [server.origin, `https://localhost:${server.port}`].map((origin) => http.all(`${origin}/*`, ({ request }) => handle(request)));

  const access = await writeClusterAccess(server.origin, authority.cert, token, 'default').catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  const stopIntercepting = (options.intercept ?? true) ? intercept(handlers) : undefined;

  let closed = false;
  return {
    url: server.origin,
    store,
    namespaces,
    faults,
    writes,
    watches,
    handlers,
    ca: authority.cert,
    token,
    timeScale,
    kubeconfig: access.kubeconfig,
    kubeconfigPath: access.kubeconfigPath,
    inClusterPathPrefix: access.inClusterPathPrefix,
    env: access.env,
    admitsWrites: options.admitWrites ?? false,
    admitWritesWith(next) {
      admitter = next;
      return () => {
        if (admitter === next) admitter = undefined;
      };
    },
    get authorizer() {
      return authorizer;
    },
    set authorizer(next: Authorizer) {
      authorizer = next;
    },
    during: (admission, fn) => writes.during(admission, fn),
    settled: async () => conversion?.settled(),
    async close() {
      if (closed) return;
      closed = true;
      conversion?.close();
      stopIntercepting?.();
      delays.cancelAll();
      watches.closeAll();
      await Promise.all([server.close(), access.remove()]);
    },
  };
}
