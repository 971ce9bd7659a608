// A ~3 KB Pod (JSON) plus the other admission variables, and the JSON -> CEL value conversion kube does
// (JSON integers are CEL ints, i.e. BigInt in both engines; other numbers are doubles).
const container = (name, image, port, extra = {}) => ({
  name,
  image,
  imagePullPolicy: 'IfNotPresent',
  ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
  env: [
    { name: 'LOG_LEVEL', value: 'info' },
    { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  ],
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
  volumeMounts: [{ name: 'config', mountPath: '/etc/app', readOnly: true }],
  readinessProbe: { httpGet: { path: '/healthz', port }, initialDelaySeconds: 5, periodSeconds: 10 },
  securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  ...extra,
});

export const podJson = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d9f8c6b5-x2k4q',
    generateName: 'web-7d9f8c6b5-',
    namespace: 'shop',
    uid: '0b8f1c9e-3c1a-4c0e-9d7e-2f4b6a8c1d3e',
    labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7d9f8c6b5', 'app.kubernetes.io/version': '1.4.2' },
    annotations: {
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9090',
      'kubectl.kubernetes.io/default-container': 'web',
    },
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: 'web-7d9f8c6b5',
        uid: '5e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b',
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  },
  spec: {
    serviceAccountName: 'web',
    terminationGracePeriodSeconds: 30,
    restartPolicy: 'Always',
    dnsPolicy: 'ClusterFirst',
    nodeSelector: { 'kubernetes.io/os': 'linux' },
    securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      container('web', 'registry.example.com/shop/web:1.4.2', 8080),
      container('sidecar-proxy', 'registry.example.com/mesh/proxy:1.19.3', 15001, { args: ['proxy', 'sidecar', '--concurrency', '2'] }),
      container('sidecar-metrics', 'registry.example.com/obs/exporter:0.27.0', 9090),
    ],
    volumes: [
      { name: 'config', configMap: { name: 'web-config', defaultMode: 420 } },
      { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
    ],
    tolerations: [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
  },
};

export const requestJson = {
  uid: '705ab4f5-6393-11e8-b7cc-42010a800002',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  requestKind: { group: '', version: 'v1', kind: 'Pod' },
  requestResource: { group: '', version: 'v1', resource: 'pods' },
  name: 'web-7d9f8c6b5-x2k4q',
  namespace: 'shop',
  operation: 'CREATE',
  userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller', groups: ['system:serviceaccounts', 'system:authenticated'] },
  dryRun: false,
};

export const paramsJson = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { maxContainers: '5' } };

/** kube's JSON -> CEL: integral numbers become int (BigInt), others double. */
export function celValue(json) {
  if (typeof json === 'number') return Number.isInteger(json) ? BigInt(json) : json;
  if (Array.isArray(json)) return json.map(celValue);
  if (json !== null && typeof json === 'object') return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, celValue(v)]));
  return json;
}

export const EXPRESSIONS = [
  ['all-not-latest', "object.spec.containers.all(c, !c.image.endsWith(':latest'))"],
  ['has-label', "has(object.metadata.labels) && 'app' in object.metadata.labels"],
  ['size-vs-param', 'object.spec.containers.size() <= int(params.data.maxContainers)'],
  ['name-and-op', "object.metadata.name.startsWith('web-') && request.operation == 'CREATE'"],
  ['map-exists-matches', "object.spec.containers.map(c, c.name).exists(n, n.matches('^side'))"],
];
