import type { Gen } from './faker';
import type { JsonObject } from './json';
import { dnsLabel } from './names';

/** What a generated container runs: its image and how it is reached and checked. */
export interface Workload {
  image: string;
  /** The version the image is tagged with, for `app.kubernetes.io/version`. */
  version: string;
  ports: JsonObject[];
  probes: JsonObject;
  env: JsonObject[];
  args?: string[];
}

function semver(gen: Gen): string {
  return `${gen.int(0, 4)}.${gen.int(0, 30)}.${gen.int(0, 20)}`;
}

/** An application image in one of the registries teams push to, tagged with a version or a commit. */
function appImage(gen: Gen, app: string): { image: string; version: string } {
  const org = dnsLabel(gen.faker.company.name(), 30, 'acme');
  const version = semver(gen);
  const reference = gen.pick([
    () => `ghcr.io/${org}/${app}:v${version}`,
    () => `quay.io/${org}/${app}:v${version}`,
    () => `registry.gitlab.com/${org}/${app}:${version}`,
    () => `${gen.faker.string.numeric(12)}.dkr.ecr.${gen.pick(['us-east-1', 'eu-west-1', 'ap-southeast-2'])}.amazonaws.com/${app}:${version}`,
    () => `${gen.pick(['us-central1', 'europe-west1'])}-docker.pkg.dev/${org}-prod/containers/${app}:${version}`,
    () => `docker.io/${org}/${app}:${gen.faker.git.commitSha({ length: 7 })}`,
  ])();
  // Some teams pin by digest as well.
  return { image: gen.chance(0.15) ? `${reference}@sha256:${gen.hex(64)}` : reference, version };
}

const http = (port: number): JsonObject[] => [{ name: 'http', containerPort: port }];

/** A web application: an HTTP port, health endpoints, and the environment it is usually given. */
function service(gen: Gen, app: string): Workload {
  const { image, version } = appImage(gen, app);
  const metrics = gen.chance(0.5) ? [{ name: 'metrics', containerPort: 9090 }] : [];
  return {
    image,
    version,
    ports: [...http(8080), ...metrics],
    probes: {
      livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 10 },
      readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 5 },
    },
    env: [
      { name: 'LOG_LEVEL', value: gen.pick(['info', 'debug', 'warn']) },
      { name: 'PORT', value: '8080' },
      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      ...(gen.chance(0.5) ? [{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: `${app}-db`, key: 'url' } } }] : []),
    ],
  };
}

/** A queue consumer: no ports, arguments naming its queue. */
function worker(gen: Gen, app: string): Workload {
  const { image, version } = appImage(gen, app);
  return {
    image,
    version,
    ports: [],
    probes: {},
    env: [{ name: 'QUEUE_URL', valueFrom: { secretKeyRef: { name: `${app}-queue`, key: 'url' } } }],
    args: ['--queue', dnsLabel(gen.faker.word.noun()), '--concurrency', String(gen.pick([2, 4, 8]))],
  };
}

/** Public images of well-known software, with the ports and checks their charts give them. */
function offTheShelf(gen: Gen): Workload {
  return gen.pick([
    () => {
      const version = gen.pick(['1.27.3', '1.27.2', '1.26.2']);
      return {
        image: gen.pick([`nginx:${version}`, `nginx:${version}-alpine`]),
        version,
        ports: http(80),
        probes: { readinessProbe: { httpGet: { path: '/', port: 'http' } } },
        env: [],
      };
    },
    () => ({
      image: 'nginxinc/nginx-unprivileged:1.27.3-alpine',
      version: '1.27.3',
      ports: http(8080),
      probes: { readinessProbe: { httpGet: { path: '/', port: 'http' } } },
      env: [],
    }),
    () => ({
      image: 'redis:7.4.1-alpine',
      version: '7.4.1',
      ports: [{ name: 'redis', containerPort: 6379 }],
      probes: { livenessProbe: { tcpSocket: { port: 'redis' } } },
      env: [],
    }),
    () => ({
      image: 'postgres:16.4',
      version: '16.4',
      ports: [{ name: 'postgres', containerPort: 5432 }],
      probes: { readinessProbe: { exec: { command: ['pg_isready', '-U', 'postgres'] } } },
      env: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'postgres', key: 'password' } } }],
    }),
    () => ({ image: 'quay.io/prometheus/node-exporter:v1.8.2', version: '1.8.2', ports: [{ name: 'metrics', containerPort: 9100 }], probes: {}, env: [] }),
    () => ({
      image: 'registry.k8s.io/ingress-nginx/controller:v1.11.3',
      version: '1.11.3',
      ports: [...http(80), { name: 'https', containerPort: 443 }],
      probes: { livenessProbe: { httpGet: { path: '/healthz', port: 10254 } } },
      env: [],
    }),
  ])();
}

/** What the main container of an application named `app` runs. */
export function workloadFor(gen: Gen, app: string): Workload {
  const roll = gen.int(0, 9);
  return roll < 6 ? service(gen, app) : roll < 8 ? worker(gen, app) : offTheShelf(gen);
}

/** Sidecars clusters commonly inject or add by hand. */
export function sidecar(gen: Gen): JsonObject {
  return gen.pick([
    {
      name: 'log-shipper',
      image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
      resources: { requests: { cpu: '10m', memory: '32Mi' }, limits: { memory: '64Mi' } },
    },
    {
      name: 'cloud-sql-proxy',
      image: 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.14.1',
      args: ['--structured-logs', '--port=5432'],
      resources: { requests: { cpu: '50m', memory: '64Mi' } },
    },
    { name: 'oauth2-proxy', image: 'quay.io/oauth2-proxy/oauth2-proxy:v7.7.1', ports: [{ name: 'proxy', containerPort: 4180 }] },
  ]);
}

const MILLICORES: Readonly<Record<string, number>> = { '50m': 50, '100m': 100, '250m': 250, '500m': 500, '1': 1000, '2': 2000 };

/** Requests sized like real services, a memory limit, and sometimes a CPU limit, never below the request (the API refuses that). */
export function resources(gen: Gen): JsonObject {
  const cpu = gen.pick(['50m', '100m', '250m', '500m', '1']);
  const memory = gen.pick(['64Mi', '128Mi', '256Mi', '512Mi', '1Gi']);
  const limitMemory = gen.pick([memory, `${Number.parseInt(memory, 10) * 2}${memory.replace(/^\d+/, '')}`]);
  const cpuLimits = ['500m', '1', '2'].filter((limit) => (MILLICORES[limit] ?? 0) >= (MILLICORES[cpu] ?? 0));
  return {
    limits: { ...(gen.chance(0.4) ? { cpu: gen.pick(cpuLimits) } : {}), memory: limitMemory },
    requests: { cpu, memory },
  };
}

/** The container name a bare image gets: its repository's last path segment. */
export function containerNameFor(image: string): string {
  const path = image.split('@')[0] ?? image;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return dnsLabel(last.split(':')[0] ?? last, 63, 'app');
}
