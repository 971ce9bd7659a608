/*
 * The endpoints that describe the server rather than serve resources: `/version` (apiserver:pkg/endpoints/
 * handlers/... version.go, written with WriteRawJSON) and the health checks `/healthz`, `/livez`, `/readyz`
 * (apiserver:pkg/server/healthz/healthz.go), answered as a healthy kube-apiserver v1.36.2 answers them.
 */

/** version.Info of the kube-apiserver the mock API stands for. */
export const VERSION_INFO = {
  major: '1',
  minor: '36',
  emulationMajor: '1',
  emulationMinor: '36',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '35',
  gitVersion: 'v1.36.2',
  gitCommit: '8e16b12fda5b1dccc41a6de48b3e356cc7d5048b',
  gitTreeState: 'clean',
  buildDate: '1970-01-01T00:00:00Z',
  goVersion: 'go1.26.10',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

// The post-start hooks kube-apiserver registers with default flags, in the order it installs them.
const POST_START_HOOKS = [
  'start-apiserver-admission-initializer',
  'generic-apiserver-start-informers',
  'priority-and-fairness-config-consumer',
  'priority-and-fairness-filter',
  'storage-object-count-tracker-hook',
  'start-apiextensions-informers',
  'start-apiextensions-controllers',
  'crd-informer-synced',
  'start-system-namespaces-controller',
  'peer-endpoint-reconciler-controller',
  'start-cluster-authentication-info-controller',
  'start-kube-apiserver-identity-lease-controller',
  'start-kube-apiserver-identity-lease-garbage-collector',
  'storage-readiness',
  'start-legacy-token-tracking-controller',
  'start-service-ip-repair-controllers',
  'rbac/bootstrap-roles',
  'scheduling/bootstrap-system-priority-classes',
  'priority-and-fairness-config-producer',
  'bootstrap-controller',
  'start-kubernetes-service-cidr-controller',
  'start-kube-aggregator-informers',
  'apiservice-status-local-available-controller',
  'apiservice-status-remote-available-controller',
  'apiservice-registration-controller',
  'apiservice-wait-for-first-sync',
  'apiservice-discovery-controller',
  'kube-apiserver-autoregistration',
].map((hook) => `poststarthook/${hook}`);
const OPENAPI_HOOKS = ['poststarthook/apiservice-openapi-controller', 'poststarthook/apiservice-openapiv3-controller'];

/** The checks each endpoint runs, in the order `?verbose` lists them. */
const CHECKS: Readonly<Record<HealthEndpoint, readonly string[]>> = {
  healthz: ['ping', 'log', 'loopback-serving-certificate', 'etcd', ...POST_START_HOOKS, 'autoregister-completion', ...OPENAPI_HOOKS],
  livez: ['ping', 'log', 'loopback-serving-certificate', 'etcd', ...POST_START_HOOKS, 'autoregister-completion', ...OPENAPI_HOOKS],
  readyz: ['ping', 'log', 'informer-sync', ...POST_START_HOOKS, 'autoregister-completion', ...OPENAPI_HOOKS, 'shutdown'],
};

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export const isHealthEndpoint = (name: string | undefined): name is HealthEndpoint => name === 'healthz' || name === 'livez' || name === 'readyz';

/**
 * The text a health endpoint answers with 200, or undefined for a check it does not have (which the mux answers
 * with its 404 page): `ok`, or with `verbose` every check and the closing line.
 */
export function healthText(endpoint: HealthEndpoint, check: string, verbose: boolean): string | undefined {
  const checks = CHECKS[endpoint];
  if (check) return checks.includes(check) ? 'ok' : undefined;
  if (!verbose) return 'ok';
  return `${checks.map((name) => `[+]${name} ok\n`).join('')}${endpoint} check passed\n`;
}
