import type { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import { app } from '../app';
import type { Gen } from '../faker';
import { generator, metadataOf } from '../generate';
import type { JsonObject } from '../json';
import { appName, namespaceName } from '../names';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export const service = generator<Service>((gen, shortcuts) => {
  const name = shortcuts.name ?? appName(gen);
  const application = app(gen, name);
  const type = gen.pick(['ClusterIP', 'ClusterIP', 'ClusterIP', 'NodePort', 'LoadBalancer', 'headless']);
  const ports = gen.pick([
    [{ name: 'http', port: 80, targetPort: 'http' }],
    [
      { name: 'http', port: 8080, targetPort: 8080 },
      { name: 'metrics', port: 9090, targetPort: 'metrics' },
    ],
    [{ name: 'grpc', port: 9000, targetPort: 9000, appProtocol: 'kubernetes.io/h2c' }],
    [{ name: 'https', port: 443, targetPort: 8443 }],
  ]);
  const annotations = type === 'LoadBalancer' ? { 'service.beta.kubernetes.io/aws-load-balancer-type': 'nlb' } : undefined;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadataOf(shortcuts, { name, namespace: 'default', labels: application.labels, ...(annotations ? { annotations } : {}) }),
    spec: {
      ports,
      selector: shortcuts.labels ?? application.selector,
      ...(type === 'headless' ? { clusterIP: 'None' } : { type }),
      ...(type === 'LoadBalancer' && gen.chance(0.5) ? { externalTrafficPolicy: 'Local' } : {}),
    },
  };
});

function configFile(gen: Gen): string {
  return [
    'server:',
    `  port: ${gen.pick([8080, 8443, 3000])}`,
    `  readTimeout: ${gen.pick([5, 10, 30])}s`,
    'database:',
    `  host: ${gen.faker.internet.domainWord()}.${gen.faker.internet.domainWord()}.svc.cluster.local`,
    `  name: ${gen.faker.database.column().toLowerCase()}`,
    `  poolSize: ${gen.int(5, 50)}`,
    'features:',
    `  ${gen.faker.hacker.verb().replace(/\W+/g, '')}: ${gen.chance(0.5)}`,
    '',
  ].join('\n');
}

export const configMap = generator<ConfigMap>((gen, shortcuts) => {
  const owner = appName(gen);
  const application = app(gen, owner);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadataOf(shortcuts, { name: `${owner}-config`, namespace: 'default', labels: application.labels }),
    data: {
      LOG_LEVEL: gen.pick(['info', 'debug', 'warn']),
      ...(gen.chance(0.5)
        ? { FEATURE_FLAGS: gen.faker.helpers.arrayElements(['beta-ui', 'new-billing', 'fast-path', 'audit-log'], { min: 1, max: 3 }).join(',') }
        : {}),
      'config.yaml': configFile(gen),
    },
  };
});

function pem(gen: Gen, label: string): string {
  const body = gen.faker.string
    .alphanumeric(256)
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** Secret contents by type: credentials, a TLS pair, or registry credentials. */
function secretOf(gen: Gen, name: string): JsonObject {
  switch (gen.pick(['Opaque', 'Opaque', 'kubernetes.io/tls', 'kubernetes.io/dockerconfigjson'])) {
    case 'kubernetes.io/tls':
      return {
        name: `${name}-tls`,
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': base64(pem(gen, 'CERTIFICATE')), 'tls.key': base64(pem(gen, 'PRIVATE KEY')) },
      };
    case 'kubernetes.io/dockerconfigjson': {
      const auth = base64(`${gen.faker.internet.username().toLowerCase()}:${gen.faker.internet.password({ length: 24 })}`);
      const config = JSON.stringify({ auths: { [gen.pick(['ghcr.io', 'quay.io', 'registry.gitlab.com'])]: { auth } } });
      return { name: 'regcred', type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': base64(config) } };
    }
    default: {
      const credentials = { username: gen.faker.internet.username().toLowerCase(), password: gen.faker.internet.password({ length: 20 }) };
      // Manifests often carry stringData; the apiserver has merged it into data before webhooks see it.
      return gen.chance(0.3)
        ? { name: `${name}-credentials`, type: 'Opaque', stringData: credentials }
        : { name: `${name}-credentials`, type: 'Opaque', data: { username: base64(credentials.username), password: base64(credentials.password) } };
    }
  }
}

export const secret = generator<Secret>((gen, shortcuts) => {
  const owner = appName(gen);
  const { name, ...contents } = secretOf(gen, owner);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadataOf(shortcuts, { name: String(name), namespace: 'default', labels: app(gen, owner).selector }),
    ...contents,
  };
});

export const namespace = generator<Namespace>((gen, shortcuts) => {
  const name = shortcuts.name ?? namespaceName(gen);
  const labels = {
    team: name.split('-')[0] ?? name,
    environment: name.split('-').at(-1) ?? 'prod',
    ...(gen.chance(0.5) ? { 'pod-security.kubernetes.io/enforce': gen.pick(['restricted', 'baseline']) } : {}),
  };
  return { apiVersion: 'v1', kind: 'Namespace', metadata: metadataOf({ ...shortcuts, namespace: undefined }, { name, labels }) };
});

export const serviceAccount = generator<ServiceAccount>((gen, shortcuts) => {
  const name = shortcuts.name ?? appName(gen);
  const annotations = gen.pick([
    undefined,
    undefined,
    { 'eks.amazonaws.com/role-arn': `arn:aws:iam::${gen.faker.string.numeric(12)}:role/${name}` },
    { 'iam.gke.io/gcp-service-account': `${name}@${gen.faker.internet.domainWord()}-prod.iam.gserviceaccount.com` },
  ]);
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: metadataOf(shortcuts, { name, namespace: 'default', labels: app(gen, name).selector, ...(annotations ? { annotations } : {}) }),
    ...(gen.chance(0.3) ? { automountServiceAccountToken: false } : {}),
  };
});

export const persistentVolumeClaim = generator<PersistentVolumeClaim>((gen, shortcuts) => {
  const owner = appName(gen);
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: metadataOf(shortcuts, { name: `data-${owner}`, namespace: 'default', labels: app(gen, owner).selector }),
    spec: {
      accessModes: [gen.chance(0.85) ? 'ReadWriteOnce' : 'ReadWriteMany'],
      resources: { requests: { storage: `${gen.pick([1, 5, 10, 20, 100])}Gi` } },
      ...(gen.chance(0.7) ? { storageClassName: gen.pick(['standard', 'gp3', 'premium-rwo', 'longhorn']) } : {}),
    },
  };
});
