/**
 * The API's defaulters (lib/registry/defaults), against kube-apiserver v1.36's scheme defaulters:
 * `pkg/apis/{core,apps,batch,rbac,networking}/v1/defaults.go` and their generated
 * `zz_generated.defaults.go`, plus what Go's encoding/json writes (struct values, canonical
 * Quantities, field order). Each case gives an input and the exact defaulted output, key order
 * included (`toStrictEqual` on JSON text), and every input is checked for idempotence.
 */
import { apiDefaults } from '../../lib/registry/defaults';
import { imageTag, pullPolicy } from '../../lib/registry/defaults/image';
import type { JsonRecord } from '../../lib/kube/record';

const HEX64 = 'a'.repeat(64);

/** JSON text: equal only when the members come in the same order. */
const text = (value: unknown) => JSON.stringify(value, null, 1);

/** A top-level object as Go writes it: TypeMeta (kind, apiVersion) first. The inputs here are written apiVersion first. */
function asWritten(object: JsonRecord): JsonRecord {
  const { kind, apiVersion, ...rest } = object;
  return { kind, apiVersion, ...rest };
}

function pod(spec: JsonRecord, metadata: JsonRecord = { name: 'p', namespace: 'ns' }): JsonRecord {
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

/** The pod the API returns: its status is a struct value, written `{}`. */
function podOut(spec: JsonRecord): JsonRecord {
  return { ...pod(spec), status: {} };
}

function container(extra: JsonRecord = {}): JsonRecord {
  return { name: 'c', image: 'nginx:1.27', ...extra };
}

// Container members that come before `resources` in field order.
const BEFORE_RESOURCES = ['command', 'args', 'workingDir', 'ports', 'envFrom', 'env'];

/** A container as the API returns it (SetDefaults_Container), `extra` members in their place. */
function defaultedContainer(extra: JsonRecord = {}, resources: JsonRecord = {}): JsonRecord {
  const before = Object.fromEntries(Object.entries(extra).filter(([key]) => BEFORE_RESOURCES.includes(key)));
  const after = Object.fromEntries(Object.entries(extra).filter(([key]) => !BEFORE_RESOURCES.includes(key)));
  return {
    name: 'c',
    image: 'nginx:1.27',
    ...before,
    resources,
    ...after,
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
}

const POD_SPEC_DEFAULTS = {
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  dnsPolicy: 'ClusterFirst',
  securityContext: {},
  schedulerName: 'default-scheduler',
};

/** Only the members of `spec` given and the pod defaults, in PodSpec order. */
function podSpecOut(members: { volumes?: unknown; containers: unknown; rest?: JsonRecord; pod?: boolean }): JsonRecord {
  return {
    ...(members.volumes === undefined ? {} : { volumes: members.volumes }),
    containers: members.containers,
    ...POD_SPEC_DEFAULTS,
    ...(members.pod === false ? {} : { enableServiceLinks: true }),
    // Members after enableServiceLinks in PodSpec (overhead, resources…).
    ...members.rest,
  };
}

const allInputs: Array<[string, JsonRecord]> = [];

function expectDefaults(name: string, input: JsonRecord, expected: JsonRecord): void {
  allInputs.push([name, input]);
  it(name, () => {
    expect(text(apiDefaults(input))).toBe(text(asWritten(expected)));
  });
}

describe('ParseImageName → SetDefaults_Container imagePullPolicy', () => {
  const table: Array<[string, string, 'Always' | 'IfNotPresent']> = [
    ['nginx', 'latest', 'Always'],
    ['nginx:latest', 'latest', 'Always'],
    ['nginx:1.27', '1.27', 'IfNotPresent'],
    ['docker.io/library/busybox', 'latest', 'Always'],
    ['index.docker.io/busybox:1', '1', 'IfNotPresent'],
    ['localhost/app', 'latest', 'Always'],
    ['localhost:5000/app', 'latest', 'Always'],
    ['localhost:5000/team/app:v2', 'v2', 'IfNotPresent'],
    ['[::1]:5000/app:latest', 'latest', 'Always'],
    ['registry.example.com/app:1.0', '1.0', 'IfNotPresent'],
    [`nginx@sha256:${HEX64}`, '', 'IfNotPresent'],
    [`nginx:latest@sha256:${HEX64}`, 'latest', 'Always'],
    // The parse errors: the tag is "" and the policy IfNotPresent.
    ['', '', 'IfNotPresent'],
    ['Nginx', '', 'IfNotPresent'],
    ['example.com/App:latest', '', 'IfNotPresent'],
    ['nginx:latest@sha256:abc', '', 'IfNotPresent'],
    [`nginx:latest@sha256:${'A'.repeat(64)}`, '', 'IfNotPresent'],
    [`nginx:latest@md5:${'a'.repeat(32)}`, '', 'IfNotPresent'],
    ['nginx:-bad', '', 'IfNotPresent'],
    ['nginx latest', '', 'IfNotPresent'],
    [HEX64, '', 'IfNotPresent'],
    [`library/${'a'.repeat(250)}`, '', 'IfNotPresent'],
    // An upper-case first component is taken for a registry host, which may have capitals.
    ['Example/app', 'latest', 'Always'],
  ];
  it.each(table)('%j has tag %j and policy %s', (image, tag, policy) => {
    expect(imageTag(image)).toBe(tag);
    expect(pullPolicy(image)).toBe(policy);
  });

  it('defaults an unparseable image to IfNotPresent on a pod', () => {
    const out = apiDefaults(pod({ containers: [{ name: 'c', image: 'Nginx' }] }));
    expect((out.spec as { containers: JsonRecord[] }).containers[0]?.imagePullPolicy).toBe('IfNotPresent');
  });
});

describe('Pod defaults (SetObjectDefaults_Pod)', () => {
  // 1. SetDefaults_HTTPGetAction: path "/" as well as scheme HTTP, in probes and lifecycle handlers.
  expectDefaults(
    'httpGet gets path "/" and scheme HTTP in probes and lifecycle handlers',
    pod({
      containers: [
        container({
          livenessProbe: { httpGet: { port: 8080 } },
          readinessProbe: { httpGet: { port: 'http', path: '/ready', scheme: 'HTTPS' }, periodSeconds: 5 },
          startupProbe: { grpc: { port: 9000 } },
          lifecycle: { preStop: { httpGet: { port: 80, host: 'localhost' } }, postStart: { exec: { command: ['true'] } } },
        }),
      ],
    }),
    podOut(
      podSpecOut({
        containers: [
          defaultedContainer({
            livenessProbe: {
              httpGet: { path: '/', port: 8080, scheme: 'HTTP' },
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            readinessProbe: {
              httpGet: { path: '/ready', port: 'http', scheme: 'HTTPS' },
              timeoutSeconds: 1,
              periodSeconds: 5,
              successThreshold: 1,
              failureThreshold: 3,
            },
            startupProbe: { grpc: { port: 9000, service: '' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
            lifecycle: { postStart: { exec: { command: ['true'] } }, preStop: { httpGet: { path: '/', port: 80, host: 'localhost', scheme: 'HTTP' } } },
          }),
        ],
      }),
    ),
  );

  // 2. defaultHostNetworkPorts runs in SetDefaults_Pod only.
  expectDefaults(
    'hostNetwork copies containerPort to hostPort for pods (containers and init containers)',
    pod({
      hostNetwork: true,
      initContainers: [container({ name: 'i', ports: [{ containerPort: 53, protocol: 'UDP' }] })],
      containers: [
        container({
          ports: [
            { name: 'http', containerPort: 8080 },
            { containerPort: 9090, hostPort: 19090 },
          ],
        }),
      ],
    }),
    podOut({
      initContainers: [{ ...defaultedContainer({ ports: [{ hostPort: 53, containerPort: 53, protocol: 'UDP' }] }), name: 'i' }],
      containers: [
        defaultedContainer({
          ports: [
            { name: 'http', hostPort: 8080, containerPort: 8080, protocol: 'TCP' },
            { hostPort: 19090, containerPort: 9090, protocol: 'TCP' },
          ],
        }),
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      hostNetwork: true,
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    }),
  );

  // 3. SetDefaults_Volume: a volume without a source is an emptyDir.
  expectDefaults(
    'a volume with no source (or a null one) becomes an emptyDir; others keep their source',
    pod({
      volumes: [{ name: 'scratch' }, { name: 'nulled', emptyDir: null }, { configMap: { name: 'cm' }, name: 'cfg' }],
      containers: [container()],
    }),
    podOut(
      podSpecOut({
        volumes: [
          { name: 'scratch', emptyDir: {} },
          { name: 'nulled', emptyDir: {} },
          { name: 'cfg', configMap: { name: 'cm', defaultMode: 420 } },
        ],
        containers: [defaultedContainer()],
      }),
    ),
  );

  // 4. SetDefaults_ServiceAccountTokenProjection and the projected downwardAPI fieldRef.
  expectDefaults(
    'projected volumes: token expiration 3600, downwardAPI fieldRef apiVersion v1 and resourceFieldRef divisor',
    pod({
      volumes: [
        {
          name: 'token',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token', audience: 'vault' } },
              {
                downwardAPI: {
                  items: [
                    { path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } },
                    { path: 'mem', resourceFieldRef: { resource: 'limits.memory', divisor: '1024Mi' } },
                  ],
                },
              },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
            ],
          },
        },
        { name: 'info', downwardAPI: { items: [{ path: 'cpu', resourceFieldRef: { containerName: 'c', resource: 'requests.cpu' } }] } },
      ],
      containers: [container()],
    }),
    podOut(
      podSpecOut({
        volumes: [
          {
            name: 'token',
            projected: {
              sources: [
                { serviceAccountToken: { audience: 'vault', expirationSeconds: 3600, path: 'token' } },
                {
                  downwardAPI: {
                    items: [
                      { path: 'ns', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } },
                      { path: 'mem', resourceFieldRef: { resource: 'limits.memory', divisor: '1Gi' } },
                    ],
                  },
                },
                { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
              ],
              defaultMode: 420,
            },
          },
          {
            name: 'info',
            downwardAPI: { items: [{ path: 'cpu', resourceFieldRef: { containerName: 'c', resource: 'requests.cpu', divisor: '0' } }], defaultMode: 420 },
          },
        ],
        containers: [defaultedContainer()],
      }),
    ),
  );

  // 5 and 6: generic ephemeral, iscsi, rbd, azureDisk, scaleIO and image volumes.
  expectDefaults(
    'ephemeral claim templates, iscsi, rbd, azureDisk, scaleIO and image volumes get their defaults',
    pod({
      volumes: [
        { name: 'eph', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5Gi' } } } } } },
        { name: 'iscsi', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } },
        { name: 'rbd', rbd: { monitors: ['10.0.0.2:6789'], image: 'foo' } },
        { name: 'azure', azureDisk: { diskName: 'd', diskURI: 'https://example/d.vhd' } },
        { name: 'sio', scaleIO: { gateway: 'https://gw', system: 'sys', secretRef: { name: 's' } } },
        { name: 'img', image: { reference: 'quay.io/crio/artifact:v1' } },
        { name: 'img-latest', image: { reference: 'quay.io/crio/artifact' } },
      ],
      containers: [container()],
    }),
    podOut(
      podSpecOut({
        volumes: [
          {
            name: 'eph',
            ephemeral: {
              volumeClaimTemplate: {
                metadata: {},
                spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1536Mi' } }, volumeMode: 'Filesystem' },
              },
            },
          },
          { name: 'iscsi', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0, iscsiInterface: 'default' } },
          { name: 'rbd', rbd: { monitors: ['10.0.0.2:6789'], image: 'foo', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' } },
          {
            name: 'azure',
            azureDisk: { diskName: 'd', diskURI: 'https://example/d.vhd', cachingMode: 'ReadWrite', fsType: 'ext4', readOnly: false, kind: 'Shared' },
          },
          { name: 'sio', scaleIO: { gateway: 'https://gw', system: 'sys', secretRef: { name: 's' }, storageMode: 'ThinProvisioned', fsType: 'xfs' } },
          { name: 'img', image: { reference: 'quay.io/crio/artifact:v1', pullPolicy: 'IfNotPresent' } },
          { name: 'img-latest', image: { reference: 'quay.io/crio/artifact', pullPolicy: 'Always' } },
        ],
        containers: [defaultedContainer()],
      }),
    ),
  );

  // 8. SetDefaults_ResourceList (milli round-up) and the canonical Quantity form.
  expectDefaults(
    'resource quantities are rounded up to milli and written in canonical form; requests copy limits',
    pod({
      overhead: { memory: '1024Ki', cpu: '0.25' },
      containers: [
        container({
          resources: { limits: { memory: '1.5Gi', cpu: '0.5' }, requests: { cpu: '1000m', 'example.com/gpu': 1 } },
          env: [{ name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1024Ki' } } }],
        }),
        { name: 'd', image: 'busybox', resources: { limits: { cpu: '1.500', memory: '1e3' } } },
      ],
    }),
    podOut(
      podSpecOut({
        containers: [
          defaultedContainer(
            { env: [{ name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } }] },
            { limits: { cpu: '500m', memory: '1536Mi' }, requests: { cpu: '1', 'example.com/gpu': '1', memory: '1536Mi' } },
          ),
          {
            ...defaultedContainer({}, { limits: { cpu: '1.500', memory: '1e3' }, requests: { cpu: '1.500', memory: '1e3' } }),
            name: 'd',
            image: 'busybox',
            imagePullPolicy: 'Always',
          },
        ],
        rest: { overhead: { cpu: '250m', memory: '1Mi' } },
      }),
    ),
  );

  // Pod-level resources (requests only: PodLevelResources' request defaulting needs limits).
  expectDefaults(
    'pod-level resources are rounded and canonical',
    pod({ resources: { requests: { memory: '2048Mi', cpu: 0.5 } }, containers: [container()] }),
    podOut(podSpecOut({ containers: [defaultedContainer()], rest: { resources: { requests: { cpu: '500m', memory: '2Gi' } } } })),
  );

  it('rounds quantities below milli in init and ephemeral containers', () => {
    const out = apiDefaults(
      pod({
        initContainers: [container({ name: 'i', resources: { requests: { cpu: '0.0001' } } })],
        containers: [container()],
        ephemeralContainers: [{ name: 'debug', image: 'busybox:1.36', resources: { requests: { memory: '0.5Ki', cpu: '1.0001' } } }],
      }),
    ) as { spec: { initContainers: JsonRecord[]; ephemeralContainers: JsonRecord[] } };
    expect(out.spec.initContainers[0]?.resources).toEqual({ requests: { cpu: '1m' } });
    expect(out.spec.ephemeralContainers[0]?.resources).toEqual({ requests: { cpu: '1001m', memory: '512' } });
  });

  // 10. The v1 ↔ internal conversion of serviceAccount.
  expectDefaults(
    'serviceAccountName wins and the deprecated serviceAccount is rewritten to it',
    pod({ serviceAccount: 'old', serviceAccountName: 'new', containers: [container()] }),
    podOut({
      containers: [defaultedContainer()],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'new',
      serviceAccount: 'new',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    }),
  );
  expectDefaults(
    'a lone deprecated serviceAccount fills serviceAccountName',
    pod({ serviceAccount: 'old', containers: [container()] }),
    podOut({
      containers: [defaultedContainer()],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'old',
      serviceAccount: 'old',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    }),
  );
});

describe('pod templates (workloads)', () => {
  const template = (spec: JsonRecord) => ({ metadata: { labels: { app: 'web' } }, spec });
  const deployment = (podTemplate: JsonRecord): JsonRecord => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate },
  });
  const deploymentOut = (podTemplate: JsonRecord): JsonRecord => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: podTemplate,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {},
  });

  // 2: templates get no host ports (nor enableServiceLinks, nor requests from limits).
  expectDefaults(
    'hostNetwork does not fill hostPort in a template; quantities are still canonical',
    deployment(template({ hostNetwork: true, containers: [container({ ports: [{ containerPort: 80 }], resources: { limits: { cpu: '0.5' } } })] })),
    deploymentOut(
      template({
        containers: [defaultedContainer({ ports: [{ containerPort: 80, protocol: 'TCP' }] }, { limits: { cpu: '500m' } })],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        hostNetwork: true,
        securityContext: {},
        schedulerName: 'default-scheduler',
      }),
    ),
  );

  // 11. PodTemplateSpec.ObjectMeta is a struct value.
  expectDefaults(
    'a template without metadata is written with "metadata": {}',
    deployment({ spec: { containers: [container()] } }),
    deploymentOut({ metadata: {}, spec: podSpecOut({ containers: [defaultedContainer()], pod: false }) }),
  );
});

describe('Service defaults (SetDefaults_Service)', () => {
  const service = (spec?: JsonRecord, status?: JsonRecord): JsonRecord => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 's', namespace: 'ns' },
    ...(spec === undefined ? {} : { spec }),
    ...(status === undefined ? {} : { status }),
  });

  // 12. service.ExternallyAccessible includes ClusterIP with externalIPs.
  expectDefaults(
    'a ClusterIP service with externalIPs gets externalTrafficPolicy Cluster',
    service({ externalIPs: ['1.2.3.4'], ports: [{ port: 80 }] }),
    service(
      {
        ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
        type: 'ClusterIP',
        externalIPs: ['1.2.3.4'],
        sessionAffinity: 'None',
        externalTrafficPolicy: 'Cluster',
        internalTrafficPolicy: 'Cluster',
      },
      { loadBalancer: {} },
    ),
  );

  // 13. None drops the config; ClientIP with an incomplete config gets the whole default one.
  expectDefaults(
    'sessionAffinity None removes a sessionAffinityConfig',
    service({ ports: [{ port: 80 }], sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }),
    service(
      { ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }], type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' },
      { loadBalancer: {} },
    ),
  );
  expectDefaults(
    'sessionAffinity ClientIP with a config lacking timeoutSeconds gets the 10800 s default',
    service({ ports: [{ port: 80 }], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: {} } }),
    service(
      {
        ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
        type: 'ClusterIP',
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
        internalTrafficPolicy: 'Cluster',
      },
      { loadBalancer: {} },
    ),
  );
  expectDefaults(
    'sessionAffinity ClientIP keeps a complete config',
    service({ ports: [{ port: 80 }], sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }),
    service(
      {
        ports: [{ protocol: 'TCP', port: 80, targetPort: 80 }],
        type: 'ClusterIP',
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } },
        internalTrafficPolicy: 'Cluster',
      },
      { loadBalancer: {} },
    ),
  );

  // 14. targetPort 0 or "" is replaced too.
  expectDefaults(
    'targetPort 0 and "" become the port; a named or numbered target stays',
    service({
      ports: [
        { name: 'a', port: 80, targetPort: 0 },
        { name: 'b', port: 81, targetPort: '' },
        { name: 'c', port: 82, targetPort: 'http' },
        { name: 'd', port: 83, targetPort: 8083 },
      ],
    }),
    service(
      {
        ports: [
          { name: 'a', protocol: 'TCP', port: 80, targetPort: 80 },
          { name: 'b', protocol: 'TCP', port: 81, targetPort: 81 },
          { name: 'c', protocol: 'TCP', port: 82, targetPort: 'http' },
          { name: 'd', protocol: 'TCP', port: 83, targetPort: 8083 },
        ],
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
      },
      { loadBalancer: {} },
    ),
  );

  // 15 and the LoadBalancer defaults.
  expectDefaults(
    'a LoadBalancer gets node ports allocation, both traffic policies and ingress ipMode VIP',
    service(
      { type: 'LoadBalancer', ports: [{ port: 443, targetPort: 8443 }] },
      { loadBalancer: { ingress: [{ ip: '203.0.113.7' }, { hostname: 'lb.example.com' }, { ip: '203.0.113.8', ipMode: 'Proxy' }] } },
    ),
    service(
      {
        ports: [{ protocol: 'TCP', port: 443, targetPort: 8443 }],
        type: 'LoadBalancer',
        sessionAffinity: 'None',
        externalTrafficPolicy: 'Cluster',
        allocateLoadBalancerNodePorts: true,
        internalTrafficPolicy: 'Cluster',
      },
      { loadBalancer: { ingress: [{ ip: '203.0.113.7', ipMode: 'VIP' }, { hostname: 'lb.example.com' }, { ip: '203.0.113.8', ipMode: 'Proxy' }] } },
    ),
  );
  expectDefaults(
    'an ExternalName service gets neither traffic policy',
    service({ type: 'ExternalName', externalName: 'db.example.com' }),
    service({ type: 'ExternalName', sessionAffinity: 'None', externalName: 'db.example.com' }, { loadBalancer: {} }),
  );

  // 26. ServiceSpec is a struct value.
  expectDefaults(
    'a service without spec is defaulted as an empty spec',
    service(),
    service({ type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' }, { loadBalancer: {} }),
  );
});

describe('PersistentVolumeClaim defaults', () => {
  // 16. VolumeResourceRequirements is a struct value; quantities are rounded and canonical.
  expectDefaults(
    'a claim without resources is written with "resources": {} and volumeMode Filesystem',
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c', namespace: 'ns' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast' },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c', namespace: 'ns' },
      spec: { accessModes: ['ReadWriteOnce'], resources: {}, storageClassName: 'fast', volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    },
  );
  expectDefaults(
    'claim resource quantities are canonical',
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c', namespace: 'ns' },
      spec: { resources: { requests: { storage: '1024Mi' } } },
      status: {},
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c', namespace: 'ns' },
      spec: { resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
      status: { phase: 'Pending' },
    },
  );
});

describe('StatefulSet defaults (SetDefaults_StatefulSet)', () => {
  const statefulSet = (spec: JsonRecord): JsonRecord => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'ns' },
    spec: {
      selector: { matchLabels: { app: 'db' } },
      serviceName: 'db',
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [container()] } },
      ...spec,
    },
  });
  const templateOut = { metadata: { labels: { app: 'db' } }, spec: podSpecOut({ containers: [defaultedContainer()], pod: false }) };
  const statefulSetOut = (members: { claims?: unknown; updateStrategy: JsonRecord }): JsonRecord => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'ns' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'db' } },
      template: templateOut,
      ...(members.claims === undefined ? {} : { volumeClaimTemplates: members.claims }),
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: members.updateStrategy,
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    },
    status: { replicas: 0, availableReplicas: 0 },
  });

  // 17 and 18.
  expectDefaults(
    'no update strategy: RollingUpdate with partition 0 and maxUnavailable 1',
    statefulSet({}),
    statefulSetOut({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } } }),
  );
  expectDefaults(
    'an explicit RollingUpdate without rollingUpdate stays without',
    statefulSet({ updateStrategy: { type: 'RollingUpdate' } }),
    statefulSetOut({ updateStrategy: { type: 'RollingUpdate' } }),
  );
  expectDefaults(
    'an explicit rollingUpdate gets the missing partition and maxUnavailable',
    statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '50%' } } }),
    statefulSetOut({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } } }),
  );
  expectDefaults(
    'OnDelete gets no rollingUpdate',
    statefulSet({ updateStrategy: { type: 'OnDelete' } }),
    statefulSetOut({ updateStrategy: { type: 'OnDelete' } }),
  );

  // 19. Embedded claims keep the TypeMeta they were sent with (none here).
  expectDefaults(
    'volumeClaimTemplates get PVC defaults and no injected kind or apiVersion',
    statefulSet({
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5Gi' } } } }],
    }),
    statefulSetOut({
      claims: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '512Mi' } }, volumeMode: 'Filesystem' },
          status: { phase: 'Pending' },
        },
      ],
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
    }),
  );
});

describe('Job and CronJob defaults', () => {
  const jobSpecTemplate = { metadata: { labels: { app: 'batch', tier: 'jobs' } }, spec: { restartPolicy: 'Never', containers: [container()] } };
  const orderedTemplateOut = {
    metadata: { labels: { app: 'batch', tier: 'jobs' } },
    spec: {
      containers: [defaultedContainer()],
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  };

  // 20, 21 and 22.
  expectDefaults(
    'a Job gets manualSelector false, its template labels and pattern status "True"',
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'ns' },
      spec: {
        podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] },
        template: jobSpecTemplate,
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'ns', labels: { app: 'batch', tier: 'jobs' } },
      spec: {
        parallelism: 1,
        completions: 1,
        podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
        backoffLimit: 6,
        manualSelector: false,
        template: orderedTemplateOut,
        completionMode: 'NonIndexed',
        suspend: false,
        podReplacementPolicy: 'Failed',
      },
      status: {},
    },
  );
  expectDefaults(
    'a Job with its own labels keeps them; a per-index backoff limit makes the global one MaxInt32',
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'ns', labels: { own: 'yes' } },
      spec: {
        completions: 3,
        completionMode: 'Indexed',
        backoffLimitPerIndex: 1,
        manualSelector: true,
        selector: { matchLabels: { app: 'batch' } },
        template: jobSpecTemplate,
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'ns', labels: { own: 'yes' } },
      spec: {
        parallelism: 1,
        completions: 3,
        backoffLimit: 2147483647,
        backoffLimitPerIndex: 1,
        selector: { matchLabels: { app: 'batch' } },
        manualSelector: true,
        template: orderedTemplateOut,
        completionMode: 'Indexed',
        suspend: false,
        podReplacementPolicy: 'TerminatingOrFailed',
      },
      status: {},
    },
  );
  expectDefaults(
    'a CronJob job template gets pod template and pattern defaults, not the Job ones, and metadata {}',
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj', namespace: 'ns' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          spec: { podFailurePolicy: { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: '' }] }] }, template: jobSpecTemplate },
        },
      },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'cj', namespace: 'ns' },
      spec: {
        schedule: '*/5 * * * *',
        concurrencyPolicy: 'Allow',
        suspend: false,
        jobTemplate: {
          metadata: {},
          spec: {
            podFailurePolicy: { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'ConfigIssue', status: 'True' }] }] },
            template: orderedTemplateOut,
          },
        },
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
      },
      status: {},
    },
  );
});

describe('RBAC and NetworkPolicy defaults', () => {
  // 23.
  expectDefaults(
    'a RoleBinding roleRef without apiGroup gets rbac.authorization.k8s.io',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb', namespace: 'ns' },
      roleRef: { kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'User', name: 'jane' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb', namespace: 'ns' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      ],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    },
  );
  expectDefaults(
    'a ClusterRoleBinding roleRef with an empty apiGroup gets rbac.authorization.k8s.io',
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'crb' },
      roleRef: { apiGroup: '', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'devs' }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'crb' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    },
  );

  // 24.
  expectDefaults(
    'NetworkPolicy: an empty policyTypes list is defaulted from the rules',
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np', namespace: 'ns' },
      spec: { policyTypes: [], podSelector: {}, egress: [{ ports: [{ port: 53 }] }] },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np', namespace: 'ns' },
      spec: { podSelector: {}, egress: [{ ports: [{ protocol: 'TCP', port: 53 }] }], policyTypes: ['Ingress', 'Egress'] },
    },
  );
  expectDefaults(
    'NetworkPolicy: policyTypes sent are kept',
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np', namespace: 'ns' },
      spec: { podSelector: {}, policyTypes: ['Egress'] },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'np', namespace: 'ns' },
      spec: { podSelector: {}, policyTypes: ['Egress'] },
    },
  );
});

// A spec (and a workload's template, and the template's spec) is a Go struct value: the decode gives
// the zero struct when the body has none, the defaulters run on it, and Go writes it back. So a pod
// sent without a spec reaches admission with restartPolicy, dnsPolicy… and only its missing
// containers left for validation to refuse (SetObjectDefaults_Pod calls SetDefaults_PodSpec on
// &in.Spec unconditionally).
describe('struct values sent absent or null are defaulted as empty ones', () => {
  const meta = { name: 'x', namespace: 'ns' };
  const emptyTemplate = { metadata: {}, spec: { ...POD_SPEC_DEFAULTS } };
  for (const spec of [undefined, null]) {
    const sent = (apiVersion: string, kind: string): JsonRecord => ({ apiVersion, kind, metadata: meta, ...(spec === undefined ? {} : { spec }) });
    const label = spec === undefined ? 'no spec' : 'spec: null';
    expectDefaults(`Pod with ${label}`, sent('v1', 'Pod'), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta,
      spec: { ...POD_SPEC_DEFAULTS, enableServiceLinks: true },
      status: {},
    });
    expectDefaults(`Deployment with ${label}`, sent('apps/v1', 'Deployment'), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta,
      spec: {
        replicas: 1,
        template: emptyTemplate,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {},
    });
    expectDefaults(`ReplicaSet with ${label}`, sent('apps/v1', 'ReplicaSet'), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta,
      spec: { replicas: 1, template: emptyTemplate },
      status: { replicas: 0 },
    });
    expectDefaults(`Job with ${label}`, sent('batch/v1', 'Job'), {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: meta,
      spec: {
        parallelism: 1,
        completions: 1,
        backoffLimit: 6,
        manualSelector: false,
        template: emptyTemplate,
        completionMode: 'NonIndexed',
        suspend: false,
        podReplacementPolicy: 'TerminatingOrFailed',
      },
      status: {},
    });
    expectDefaults(`CronJob with ${label}`, sent('batch/v1', 'CronJob'), {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta,
      spec: {
        concurrencyPolicy: 'Allow',
        suspend: false,
        jobTemplate: { metadata: {}, spec: { template: emptyTemplate } },
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
      },
      status: {},
    });
    expectDefaults(`Ingress with ${label}`, sent('networking.k8s.io/v1', 'Ingress'), {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: meta,
      spec: {},
      status: { loadBalancer: {} },
    });
    expectDefaults(`NetworkPolicy with ${label}`, sent('networking.k8s.io/v1', 'NetworkPolicy'), {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta,
      spec: { podSelector: {}, policyTypes: ['Ingress'] },
    });
  }
  expectDefaults(
    'a Deployment whose template has no spec: the template spec gets the pod spec defaults',
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: meta, spec: { replicas: 2, template: { metadata: { labels: { app: 'web' } } } } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta,
      spec: {
        replicas: 2,
        template: { metadata: { labels: { app: 'web' } }, spec: { ...POD_SPEC_DEFAULTS } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
        revisionHistoryLimit: 10,
        progressDeadlineSeconds: 600,
      },
      status: {},
    },
  );
});

describe('idempotence: defaulting a defaulted object changes nothing', () => {
  it.each(allInputs)('%s', (_name, input) => {
    const once = apiDefaults(input);
    expect(text(apiDefaults(once))).toBe(text(once));
  });

  it('does not modify its input', () => {
    for (const [, input] of allInputs) {
      const before = text(input);
      apiDefaults(input);
      expect(text(input)).toBe(before);
    }
  });
});
