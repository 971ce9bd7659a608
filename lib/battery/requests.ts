import type { WebhookEntry } from '../config/load';
import type { KubeObject } from '../kube/admission';
import { ruleMatches } from '../match/rules';
import { review } from '../review/builders';
import { objects } from '../review/objects';
import type { SeededRandom } from '../random';
import type { Review } from '../review/review';

/** The kind of request a scenario sends, which decides the checks that apply to it. */
export type ScenarioKind = 'main' | 'delete' | 'connect' | 'subresource';

/** One request of the battery, with the words a report uses for it. */
export interface Scenario {
  title: string;
  kind: ScenarioKind;
  review: Review;
  /** The same request without dryRun, for a dryRun scenario. */
  dryRunOf?: Review;
}

interface Probe {
  title: string;
  kind: ScenarioKind;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  group: string;
  version: string;
  resource: string;
  subResource?: string;
  namespaced: boolean;
  build(random: SeededRandom): Review;
}

type Generator = (overrides: Record<string, unknown>, options: { random: SeededRandom; stored?: boolean }) => KubeObject;

// The resources the battery can build objects for: [group, version, resource, namespaced, generator].
const KINDS: [string, string, string, boolean, Generator][] = [
  ['', 'v1', 'pods', true, objects.pod as Generator],
  ['', 'v1', 'services', true, objects.service as Generator],
  ['', 'v1', 'configmaps', true, objects.configMap as Generator],
  ['', 'v1', 'secrets', true, objects.secret as Generator],
  ['', 'v1', 'serviceaccounts', true, objects.serviceAccount as Generator],
  ['', 'v1', 'persistentvolumeclaims', true, objects.persistentVolumeClaim as Generator],
  ['', 'v1', 'namespaces', false, objects.namespace as Generator],
  ['apps', 'v1', 'deployments', true, objects.deployment as Generator],
  ['apps', 'v1', 'statefulsets', true, objects.statefulSet as Generator],
  ['apps', 'v1', 'daemonsets', true, objects.daemonSet as Generator],
  ['apps', 'v1', 'replicasets', true, objects.replicaSet as Generator],
  ['batch', 'v1', 'jobs', true, objects.job as Generator],
  ['batch', 'v1', 'cronjobs', true, objects.cronJob as Generator],
  ['networking.k8s.io', 'v1', 'ingresses', true, objects.ingress as Generator],
  ['networking.k8s.io', 'v1', 'networkpolicies', true, objects.networkPolicy as Generator],
  ['rbac.authorization.k8s.io', 'v1', 'roles', true, objects.role as Generator],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings', true, objects.roleBinding as Generator],
  ['rbac.authorization.k8s.io', 'v1', 'clusterroles', false, objects.clusterRole as Generator],
  ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', false, objects.clusterRoleBinding as Generator],
];

const stored = (generate: Generator, random: SeededRandom, overrides: Record<string, unknown> = {}) => generate({ ...overrides }, { random, stored: true });
const pod = (random: SeededRandom, overrides: Record<string, unknown> = {}) => stored(objects.pod as Generator, random, overrides);

/** CREATE, UPDATE and DELETE of every kind the harness generates. */
function kindProbes(): Probe[] {
  const list: Probe[] = [];
  for (const [group, version, resource, namespaced, generate] of KINDS) {
    const at = { group, version, resource, namespaced };
    list.push(
      { ...at, title: `CREATE ${resource}`, kind: 'main', operation: 'CREATE', build: (r) => review.create(generate({}, { random: r })) },
      {
        ...at,
        title: `UPDATE ${resource}`,
        kind: 'main',
        operation: 'UPDATE',
        build: (r) => {
          const old = stored(generate, r);
          const labels = { ...(old.metadata?.labels ?? {}), 'admission-harness/updated': 'true' };
          return review.update(old, { ...old, metadata: { ...old.metadata, labels } });
        },
      },
      { ...at, title: `DELETE ${resource}`, kind: 'delete', operation: 'DELETE', build: (r) => review.delete(stored(generate, r)) },
    );
  }
  return list;
}

const CORE = { group: '', version: 'v1', namespaced: true };

/** Pods: the CREATE variants a webhook on pods tends to care about, and every pod subresource. */
function podProbes(): Probe[] {
  return [
    {
      ...CORE,
      resource: 'pods',
      title: 'CREATE pods (image :latest)',
      kind: 'main',
      operation: 'CREATE',
      build: (r) => review.create(objects.pod({ random: r, images: ['nginx:latest'] })),
    },
    {
      ...CORE,
      resource: 'pods',
      title: 'CREATE pods (two containers)',
      kind: 'main',
      operation: 'CREATE',
      build: (r) => review.create(objects.pod({ random: r, images: ['ghcr.io/acme/api:v2.3.1', 'envoyproxy/envoy:v1.31.0'] })),
    },
    {
      ...CORE,
      resource: 'pods',
      title: 'CREATE pods (restricted)',
      kind: 'main',
      operation: 'CREATE',
      build: (r) => review.create(restricted(objects.pod({ random: r, images: ['ghcr.io/acme/api:v2.3.1'] }))),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'status',
      title: 'UPDATE pods/status',
      kind: 'subresource',
      operation: 'UPDATE',
      build: (r) => review.status(pod(r), { phase: 'Running' }),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'eviction',
      title: 'CREATE pods/eviction',
      kind: 'subresource',
      operation: 'CREATE',
      build: (r) => review.evict(pod(r)),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'binding',
      title: 'CREATE pods/binding',
      kind: 'subresource',
      operation: 'CREATE',
      build: (r) => review.bind(pod(r), 'node-1'),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'ephemeralcontainers',
      title: 'UPDATE pods/ephemeralcontainers',
      kind: 'subresource',
      operation: 'UPDATE',
      build: (r) => review.debug(pod(r)),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'exec',
      title: 'CONNECT pods/exec',
      kind: 'connect',
      operation: 'CONNECT',
      build: (r) => review.exec(pod(r), ['sh']),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'attach',
      title: 'CONNECT pods/attach',
      kind: 'connect',
      operation: 'CONNECT',
      build: (r) => review.attach(pod(r)),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'portforward',
      title: 'CONNECT pods/portforward',
      kind: 'connect',
      operation: 'CONNECT',
      build: (r) => review.portForward(pod(r)),
    },
    {
      ...CORE,
      resource: 'pods',
      subResource: 'proxy',
      title: 'CONNECT pods/proxy',
      kind: 'connect',
      operation: 'CONNECT',
      build: (r) => review.proxy(pod(r), { path: '/healthz' }),
    },
  ];
}

/** The subresources of other kinds: services/proxy, serviceaccounts/token, namespaces/finalize, deployments scale and status. */
function otherSubresourceProbes(): Probe[] {
  return [
    {
      ...CORE,
      resource: 'services',
      subResource: 'proxy',
      title: 'CONNECT services/proxy',
      kind: 'connect',
      operation: 'CONNECT',
      build: (r) => review.proxy(stored(objects.service as Generator, r)),
    },
    {
      ...CORE,
      resource: 'serviceaccounts',
      subResource: 'token',
      title: 'CREATE serviceaccounts/token',
      kind: 'subresource',
      operation: 'CREATE',
      build: (r) => review.token(stored(objects.serviceAccount as Generator, r)),
    },
    {
      ...CORE,
      resource: 'namespaces',
      namespaced: false,
      subResource: 'finalize',
      title: 'UPDATE namespaces/finalize',
      kind: 'subresource',
      operation: 'UPDATE',
      build: (r) => review.finalize(stored(objects.namespace as Generator, r)),
    },
    {
      group: 'apps',
      version: 'v1',
      namespaced: true,
      resource: 'deployments',
      subResource: 'scale',
      title: 'UPDATE deployments/scale',
      kind: 'subresource',
      operation: 'UPDATE',
      build: (r) => review.scale(stored(objects.deployment as Generator, r), 3),
    },
    {
      group: 'apps',
      version: 'v1',
      namespaced: true,
      resource: 'deployments',
      subResource: 'status',
      title: 'UPDATE deployments/status',
      kind: 'subresource',
      operation: 'UPDATE',
      build: (r) => review.status(stored(objects.deployment as Generator, r), { observedGeneration: 1 }),
    },
  ];
}

const PROBES = [...kindProbes(), ...podProbes(), ...otherSubresourceProbes()];

/**
 * A pod within the `restricted` Pod Security Standard: non-root, the runtime's seccomp profile, and
 * containers that may not escalate and drop every capability. What a namespace enforcing restricted
 * admits, so the pod-security check can tell what a webhook's patch breaks.
 */
function restricted(pod: KubeObject): KubeObject {
  const spec = (pod.spec ?? {}) as { securityContext?: Record<string, unknown>; containers?: Record<string, unknown>[] };
  return {
    ...pod,
    spec: {
      ...spec,
      securityContext: { ...spec.securityContext, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: (spec.containers ?? []).map((c) => ({
        ...c,
        securityContext: { ...(c.securityContext as object), allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      })),
    },
  };
}

/**
 * The requests the battery sends to a webhook: every request the harness can build that the
 * webhook's rules match (operations, groups, versions, resources, subresources, scope), plus a
 * dryRun twin of each CREATE and UPDATE.
 */
export function scenariosFor(entry: WebhookEntry, random: SeededRandom): { scenarios: Scenario[]; unsupported: string[] } {
  const scenarios: Scenario[] = [];
  for (const probe of PROBES) {
    const subject = {
      operation: probe.operation,
      resource: { group: probe.group, version: probe.version, resource: probe.resource },
      subResource: probe.subResource ?? '',
      namespace: probe.namespaced ? 'default' : '',
    };
    if (!(entry.spec.rules ?? []).some((rule) => ruleMatches(rule, subject))) continue;
    const built = probe.build(random);
    scenarios.push({ title: probe.title, kind: probe.kind, review: built });
    if (probe.kind === 'main' && probe.operation !== 'DELETE' && !probe.title.includes('(')) {
      scenarios.push({ title: `${probe.title} (dryRun)`, kind: probe.kind, review: built.dryRun(), dryRunOf: built });
    }
  }
  return scenarios.length > 0 ? { scenarios, unsupported: [] } : { scenarios, unsupported: ['its rules match none of the requests the battery builds'] };
}
