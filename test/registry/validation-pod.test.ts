/**
 * Pod create and update validation with kube's texts (pkg/apis/core/validation ValidatePodCreate,
 * ValidatePodSpec, ValidatePodUpdate; pkg/registry/core/pod/strategy.go). Objects are what the registry
 * validates: decoded and defaulted v1 JSON.
 */
import type { JsonObject } from '../../lib/kube/json';
import { invalid as invalidStatus, type FieldError } from '../../lib/kube/status';
import { POD_UPDATE_FORBIDDEN_PREFIX, validateCreate, validateUpdate, type KindInfo } from '../../lib/registry/validation';

const POD: KindInfo = { group: '', version: 'v1', kind: 'Pod', namespaced: true };
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const texts = (errors: readonly FieldError[]): string[] => errors.map((e) => `${e.field}: ${e.body}`);

/** A container as the apiserver's defaulting leaves it. */
function container(extra: JsonObject = {}): JsonObject {
  return {
    name: 'app',
    image: 'nginx:1.27',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
    ...extra,
  };
}

/** A defaulted pod; `spec` members replace the defaults. */
function pod(spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns', ...metadata },
    spec: {
      containers: [container()],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      securityContext: {},
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      ...spec,
    },
  };
}

const probe = (handler: JsonObject, extra: JsonObject = {}): JsonObject => ({
  ...handler,
  timeoutSeconds: 1,
  periodSeconds: 10,
  successThreshold: 1,
  failureThreshold: 3,
  ...extra,
});

describe('a valid pod', () => {
  it('has no errors', () => {
    const valid = pod({
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      ],
      initContainers: [
        container({ name: 'init' }),
        container({ name: 'sidecar', restartPolicy: 'Always', readinessProbe: probe({ exec: { command: ['true'] } }) }),
      ],
      containers: [
        container({
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'A', value: 'b' },
            { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
          ],
          resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '128Mi', 'example.com/gpu': '1' } },
          volumeMounts: [
            { name: 'data', mountPath: '/data' },
            { name: 'cfg', mountPath: '/etc/cfg', readOnly: true },
          ],
          livenessProbe: probe({ httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' } }),
          securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        }),
      ],
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
    });
    expect(validateCreate(POD, valid)).toEqual([]);
  });
});

describe('pod create rules (one failing object per rule, kube texts)', () => {
  it.each<[string, JsonObject, string[]]>([
    // Container names: unique across containers, initContainers and ephemeralContainers.
    [
      'duplicate container name',
      pod({ containers: [container(), container({ name: 'side' }), container({ name: 'app' })] }),
      ['spec.containers[2].name: Duplicate value: "app"'],
    ],
    ['init container named like a container', pod({ initContainers: [container()] }), ['spec.initContainers[0].name: Duplicate value: "app"']],
    [
      'container name not a DNS label',
      pod({ containers: [container({ name: 'Bad_Name' })] }),
      [`spec.containers[0].name: Invalid value: "Bad_Name": ${LABEL_MSG}`],
    ],
    ['no containers', pod({ containers: [] }), ['spec.containers: Required value']],
    ['no image', pod({ containers: [container({ image: '' })] }), ['spec.containers[0].image: Required value']],
    [
      'image with spaces',
      pod({ containers: [container({ image: ' nginx ' })] }),
      ['spec.containers[0].image: Invalid value: " nginx ": must not have leading or trailing whitespace'],
    ],
    // Annotations and fields that must agree, and the OS rules: every container's path, init containers first.
    [
      'seccomp annotation against a container field',
      pod(
        {
          initContainers: [container({ name: 'init' })],
          containers: [container(), container({ name: 'side', securityContext: { seccompProfile: { type: 'Unconfined' } } })],
        },
        { annotations: { 'container.seccomp.security.alpha.kubernetes.io/side': 'runtime/default' } },
      ),
      ['spec.containers[1].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match'],
    ],
    [
      'apparmor annotation against an init container field',
      pod(
        { initContainers: [container({ name: 'init', securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'a' } } })] },
        { annotations: { 'container.apparmor.security.beta.kubernetes.io/init': 'localhost/b' } },
      ),
      ['spec.initContainers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match'],
    ],
    [
      'windows options in a linux pod',
      pod({ os: { name: 'linux' }, containers: [container(), container({ name: 'side', securityContext: { windowsOptions: { runAsUserName: 'x' } } })] }),
      ['spec.containers[1].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod'],
    ],
    [
      'linux options in a windows pod',
      pod({ os: { name: 'windows' }, initContainers: [container({ name: 'init', securityContext: { privileged: false } })] }),
      ['spec.initContainers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod'],
    ],
    // Volumes.
    [
      'duplicate volume name',
      pod({
        volumes: [
          { name: 'v', emptyDir: {} },
          { name: 'v', emptyDir: {} },
        ],
      }),
      ['spec.volumes[1].name: Duplicate value: "v"'],
    ],
    ['volume without a source', pod({ volumes: [{ name: 'v' }] }), ['spec.volumes[0]: Required value: must specify a volume type']],
    [
      'volume with two sources',
      pod({ volumes: [{ name: 'v', emptyDir: {}, configMap: { name: 'x', defaultMode: 420 } }] }),
      ['spec.volumes[0].configMap: Forbidden: may not specify more than 1 volume type'],
    ],
    ['volume name not a DNS label', pod({ volumes: [{ name: 'V_1', emptyDir: {} }] }), [`spec.volumes[0].name: Invalid value: "V_1": ${LABEL_MSG}`]],
    [
      'configMap volume items and mode',
      pod({ volumes: [{ name: 'v', configMap: { name: 'cm', items: [{ key: '', path: '/abs' }], defaultMode: 999 } }] }),
      [
        'spec.volumes[0].configMap.defaultMode: Invalid value: 999: must be a number between 0 and 0777 (octal), both inclusive',
        'spec.volumes[0].configMap.items[0].key: Required value',
        'spec.volumes[0].configMap.items[0].path: Invalid value: "/abs": must be a relative path',
      ],
    ],
    ['secret volume without a name', pod({ volumes: [{ name: 'v', secret: { defaultMode: 420 } }] }), ['spec.volumes[0].secret.secretName: Required value']],
    [
      'PVC volume without a claim',
      pod({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: '' } }] }),
      ['spec.volumes[0].persistentVolumeClaim.claimName: Required value'],
    ],
    // Volume mounts.
    [
      'mount of an unknown volume',
      pod({ containers: [container({ volumeMounts: [{ name: 'nope', mountPath: '/a' }] })] }),
      ['spec.containers[0].volumeMounts[0].name: Not found: "nope"'],
    ],
    [
      'two mounts at one path',
      pod({
        volumes: [
          { name: 'v', emptyDir: {} },
          { name: 'w', emptyDir: {} },
        ],
        containers: [
          container({
            volumeMounts: [
              { name: 'v', mountPath: '/a' },
              { name: 'w', mountPath: '/a' },
            ],
          }),
        ],
      }),
      ['spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/a": must be unique'],
    ],
    [
      'mount without a path',
      pod({ volumes: [{ name: 'v', emptyDir: {} }], containers: [container({ volumeMounts: [{ name: 'v', mountPath: '' }] })] }),
      ['spec.containers[0].volumeMounts[0].mountPath: Required value'],
    ],
    // Upstream names the subPath error without the mount's index.
    [
      'subPath escaping the volume',
      pod({ volumes: [{ name: 'v', emptyDir: {} }], containers: [container({ volumeMounts: [{ name: 'v', mountPath: '/a', subPath: '../x' }] })] }),
      ['spec.containers[0].volumeMounts.subPath: Invalid value: "../x": must not contain \'..\''],
    ],
    // Env.
    [
      'env names and sources',
      pod({
        containers: [
          container({
            env: [
              { name: 'A=B' },
              { name: '', value: 'x' },
              { name: 'X', valueFrom: {} },
              { name: 'B', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
            ],
          }),
        ],
      }),
      [
        'spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
        'spec.containers[0].env[1].name: Required value',
        'spec.containers[0].env[2].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
        'spec.containers[0].env[3].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
      ],
    ],
    [
      'configMapKeyRef without a name',
      pod({ containers: [container({ env: [{ name: 'C', valueFrom: { configMapKeyRef: { name: '', key: 'k' } } }] })] }),
      [`spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: "": ${SUBDOMAIN_MSG}`],
    ],
    [
      'envFrom: prefix and sources (reported on the list)',
      pod({ containers: [container({ envFrom: [{ prefix: '1=' }, { configMapRef: { name: 'a' }, secretRef: { name: 'b' } }] })] }),
      [
        'spec.containers[0].envFrom[0].prefix: Invalid value: "1=": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
        'spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
        'spec.containers[0].envFrom: Invalid value: "": may not have more than one field specified at a time',
      ],
    ],
    // Ports.
    [
      'container ports',
      pod({
        containers: [
          container({
            ports: [
              { containerPort: 0, protocol: 'TCPX', name: 'http' },
              { containerPort: 70000, protocol: 'TCP', name: 'http' },
            ],
          }),
        ],
      }),
      [
        'spec.containers[0].ports[0].containerPort: Required value',
        'spec.containers[0].ports[0].protocol: Unsupported value: "TCPX": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].ports[1].name: Duplicate value: "http"',
        'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'port names and host ports',
      pod({
        containers: [
          container({
            ports: [
              { containerPort: 80, protocol: 'TCP', name: 'HTTP' },
              { containerPort: 81, protocol: 'TCP', name: 'a-very-long-port-name' },
              { containerPort: 82, protocol: 'TCP', hostPort: 70000 },
            ],
          }),
        ],
      }),
      [
        'spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[0].name: Invalid value: "HTTP": must contain at least one letter (a-z)',
        'spec.containers[0].ports[1].name: Invalid value: "a-very-long-port-name": must be no more than 15 bytes',
        'spec.containers[0].ports[2].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'the same host port twice',
      pod({
        containers: [
          container({ ports: [{ containerPort: 80, protocol: 'TCP', hostPort: 8080 }] }),
          container({ name: 'b', ports: [{ containerPort: 81, protocol: 'TCP', hostPort: 8080 }] }),
        ],
      }),
      ['spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"'],
    ],
    // Resources.
    [
      'cpu request above its limit',
      pod({ containers: [container({ resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } })] }),
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
    ],
    [
      'memory request above its limit',
      pod({ containers: [container({ resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } })] }),
      ['spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi'],
    ],
    [
      'a negative quantity',
      pod({ containers: [container({ resources: { requests: { memory: '-1Mi' } } })] }),
      ['spec.containers[0].resources.requests[memory]: Invalid value: "-1Mi": must be greater than or equal to 0'],
    ],
    [
      'resource names and extended resources',
      pod({ containers: [container({ resources: { limits: { 'example.com/gpu': '1.5' }, requests: { foo: '1' } } })] }),
      [
        'spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "1500m": must be an integer',
        'spec.containers[0].resources.requests[foo]: Invalid value: "foo": must be a standard resource type or fully qualified',
        'spec.containers[0].resources.requests[foo]: Invalid value: "foo": must be a standard resource for containers',
      ],
    ],
    // Enums.
    [
      'restartPolicy and dnsPolicy',
      pod({ restartPolicy: 'Sometimes', dnsPolicy: 'Foo' }),
      [
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.dnsPolicy: Unsupported value: "Foo": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ],
    [
      'imagePullPolicy and terminationMessagePolicy',
      pod({ containers: [container({ imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Foo' })] }),
      [
        'spec.containers[0].terminationMessagePolicy: Unsupported value: "Foo": supported values: "File", "FallbackToLogsOnError"',
        'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      ],
    ],
    [
      'toleration operator and effect',
      pod({ tolerations: [{ key: 'a', operator: 'Foo', effect: 'Bar' }] }),
      [
        'spec.tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"',
        'spec.tolerations[0].effect: Unsupported value: "Bar": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
    [
      'toleration combinations',
      pod({
        tolerations: [
          { key: 'a', operator: 'Exists', value: 'x' },
          { operator: 'Equal', value: 'v' },
          { key: 'k', operator: 'Equal', effect: 'NoSchedule', tolerationSeconds: 10 },
        ],
      }),
      [
        'spec.tolerations[0].operator: Invalid value: "x": value must be empty when `operator` is \'Exists\'',
        'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'spec.tolerations[2].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ],
    ],
    // Probes and lifecycle.
    [
      'probe without a handler',
      pod({ containers: [container({ livenessProbe: probe({}, { successThreshold: 2 }) })] }),
      [
        'spec.containers[0].livenessProbe: Required value: must specify a handler type',
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      ],
    ],
    [
      'probe with two handlers',
      pod({ containers: [container({ readinessProbe: probe({ exec: { command: ['x'] }, httpGet: { port: 80, path: '/', scheme: 'HTTP' } }) })] }),
      ['spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type'],
    ],
    [
      'probe port out of range',
      pod({ containers: [container({ livenessProbe: probe({ httpGet: { port: 0, path: '/', scheme: 'HTTP' } }) })] }),
      ['spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive'],
    ],
    [
      'preStop without a handler',
      pod({ containers: [container({ lifecycle: { preStop: {} } })] }),
      ['spec.containers[0].lifecycle.preStop: Required value: must specify a handler type'],
    ],
    [
      'init container restartPolicy other than Always',
      pod({ initContainers: [container({ name: 'init', restartPolicy: 'Never' })] }),
      ['spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'probe on a plain init container',
      pod({ initContainers: [container({ name: 'init', readinessProbe: probe({ exec: { command: ['x'] } }) })] }),
      ['spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always'],
    ],
    // Security.
    [
      'privileged container (--allow-privileged=false)',
      pod({ containers: [container({ securityContext: { privileged: true } })] }),
      ['spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy'],
    ],
    [
      'user and group IDs, sysctls',
      pod({ securityContext: { runAsUser: -1, fsGroup: -2, sysctls: [{ name: 'bad name', value: '1' }] } }),
      [
        'spec.securityContext.fsGroup: Invalid value: -2: must be between 0 and 4294967295, inclusive',
        'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 4294967295, inclusive',
        'spec.securityContext.sysctls[0].name: Invalid value: "bad name": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      ],
    ],
    [
      'localhost seccomp profile without a path',
      pod({ securityContext: { seccompProfile: { type: 'Localhost' } } }),
      ['spec.securityContext.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost'],
    ],
    // Names and scheduling.
    [
      'serviceAccountName not a subdomain',
      pod({ serviceAccountName: 'Bad_SA', serviceAccount: 'Bad_SA' }),
      [`spec.serviceAccountName: Invalid value: "Bad_SA": ${SUBDOMAIN_MSG}`],
    ],
    ['nodeSelector key', pod({ nodeSelector: { 'bad key': 'v' } }), [`spec.nodeSelector: Invalid value: "bad key": ${NAME_PART_MSG}`]],
    [
      'node affinity without terms, pod anti-affinity without a topology key',
      pod({
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
          podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { a: 'b' } }, topologyKey: '' }] },
        },
      }),
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
        `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_PART_MSG}`,
      ],
    ],
    [
      'node selector requirement operator and values',
      pod({
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'zone', operator: 'Equals', values: ['a'] },
                    { key: 'zone', operator: 'In' },
                  ],
                },
              ],
            },
          },
        },
      }),
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ],
    [
      'hostname and subdomain are DNS labels',
      pod({ hostname: 'Bad.Host', subdomain: 'a.b' }),
      [`spec.hostname: Invalid value: "Bad.Host": ${LABEL_MSG}`, 'spec.subdomain: Invalid value: "a.b": must not contain dots'],
    ],
    [
      'activeDeadlineSeconds of 0',
      pod({ activeDeadlineSeconds: 0 }),
      ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ],
    [
      'priorityClassName and preemptionPolicy',
      pod({ priorityClassName: 'Bad', preemptionPolicy: 'Sometimes' }),
      [
        `spec.priorityClassName: Invalid value: "Bad": ${SUBDOMAIN_MSG}`,
        'spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
      ],
    ],
    ['dnsPolicy None without dnsConfig', pod({ dnsPolicy: 'None' }), ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None']],
    [
      'topology spread constraint',
      pod({ topologySpreadConstraints: [{ maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Maybe', labelSelector: {} }] }),
      [
        'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
        'spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty',
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
      ],
    ],
    [
      'ephemeral containers on create',
      pod({ ephemeralContainers: [{ name: 'dbg', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }] }),
      ['spec.ephemeralContainers: Forbidden: cannot be set on create'],
    ],
  ])('%s', (_title, object, expected) => {
    expect(texts(validateCreate(POD, object))).toEqual(expected);
  });

  it('a privileged container is fine with --allow-privileged=true', () => {
    expect(validateCreate(POD, pod({ containers: [container({ securityContext: { privileged: true } })] }), { allowPrivileged: true })).toEqual([]);
  });

  it('several errors make one Status with every cause, in kube order', () => {
    const object = pod({ containers: [container(), container(), container({ name: 'Bad_Name' })] });
    const status = invalidStatus(POD, 'web', validateCreate(POD, object));
    expect(status.message).toBe(
      `Pod "web" is invalid: [spec.containers[1].name: Duplicate value: "app", spec.containers[2].name: Invalid value: "Bad_Name": ${LABEL_MSG}]`,
    );
    expect(status.details?.causes).toEqual([
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "app"', field: 'spec.containers[1].name' },
      { reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${LABEL_MSG}`, field: 'spec.containers[2].name' },
    ]);
  });

  it('allowPrivilegeEscalation=false with privileged=true prints the internal SecurityContext', () => {
    const object = pod({
      containers: [container({ securityContext: { privileged: true, allowPrivilegeEscalation: false, capabilities: { add: ['NET_ADMIN'] } } })],
    });
    expect(texts(validateCreate(POD, object, { allowPrivileged: true }))).toEqual([
      'spec.containers[0].securityContext: Invalid value: {"Capabilities":{"Add":["NET_ADMIN"],"Drop":null},"Privileged":true,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
    ]);
  });
});

// v1 keeps hostUsers on the pod spec (Convert_v1_PodSpec_To_core_PodSpec moves it into the internal
// PodSecurityContext, where pkg/apis/core/validation/validation.go reads it): validateHostUsers,
// validateContainerSecurityContext's procMount rule, and validateWindows.
describe('spec.hostUsers (user namespaces)', () => {
  const unmasked = container({ securityContext: { procMount: 'Unmasked' } });
  const UNMASKED = 'spec.containers[0].securityContext.procMount: Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`';

  it('procMount Unmasked is valid in a pod with hostUsers: false', () => {
    expect(validateCreate(POD, pod({ hostUsers: false, containers: [unmasked] }))).toEqual([]);
  });

  it('procMount Unmasked without hostUsers: false is refused, also with hostUsers: true', () => {
    expect(texts(validateCreate(POD, pod({ containers: [unmasked] })))).toEqual([UNMASKED]);
    expect(texts(validateCreate(POD, pod({ hostUsers: true, containers: [unmasked] })))).toEqual([UNMASKED]);
    expect(invalidStatus(POD, 'web', validateCreate(POD, pod({ containers: [unmasked] }))).message).toBe(`Pod "web" is invalid: ${UNMASKED}`);
  });

  it('hostUsers: false forbids the host network, PID and IPC namespaces', () => {
    const host = pod({ hostUsers: false, hostPID: true, hostIPC: true });
    expect(texts(validateCreate(POD, host))).toEqual([
      'spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false',
      'spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false',
    ]);
    expect(validateCreate(POD, pod({ hostUsers: true, hostPID: true, hostIPC: true }))).toEqual([]);
  });

  it('a windows pod may not set hostUsers', () => {
    expect(texts(validateCreate(POD, pod({ os: { name: 'windows' }, hostUsers: false })))).toEqual([
      'spec.hostUsers: Forbidden: cannot be set for a windows pod',
    ]);
  });
});

describe('pod update (ValidatePodUpdate)', () => {
  const stored = (spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject =>
    pod(spec, { uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z', ...metadata });

  it('an image change, a label and an added toleration are allowed', () => {
    const old = stored();
    const updated = stored({ containers: [container({ image: 'nginx:1.28' })], tolerations: [{ key: 'k', operator: 'Exists' }] }, { labels: { tier: 'web' } });
    expect(validateUpdate(POD, updated, old)).toEqual([]);
  });

  it('activeDeadlineSeconds may only shrink', () => {
    const old = stored({ activeDeadlineSeconds: 30 });
    expect(texts(validateUpdate(POD, stored({ activeDeadlineSeconds: 60 }), old))).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value',
    ]);
    expect(validateUpdate(POD, stored({ activeDeadlineSeconds: 10 }), old)).toEqual([]);
    expect(texts(validateUpdate(POD, stored(), old))).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
    ]);
  });

  it('existing tolerations may not change', () => {
    const old = stored({ tolerations: [{ key: 'k', operator: 'Equal', value: 'a', effect: 'NoSchedule' }] });
    const updated = stored({ tolerations: [{ key: 'k', operator: 'Equal', value: 'b', effect: 'NoSchedule' }] });
    expect(texts(validateUpdate(POD, updated, old))).toEqual([
      'spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
  });

  it('containers may not be added or removed', () => {
    const updated = stored({ containers: [container(), container({ name: 'sidecar' })] });
    expect(texts(validateUpdate(POD, updated, stored()))).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
  });

  it('metadata.name is immutable (reported by the store and by the strategy)', () => {
    const text = 'metadata.name: Invalid value: "other": field is immutable';
    expect(texts(validateUpdate(POD, stored({}, { name: 'other' }), stored()))).toEqual([text, text]);
  });

  it("any other spec change: the Forbidden error starts with kube's exact text", () => {
    const updated = stored({ containers: [container({ ports: [{ containerPort: 3030, protocol: 'TCP' }] })] });
    const errors = validateUpdate(POD, updated, stored({ containers: [container({ ports: [{ containerPort: 3000, protocol: 'TCP' }] })] }));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.type).toBe('FieldValueForbidden');
    expect(errors[0]?.field).toBe('spec');
    expect(POD_UPDATE_FORBIDDEN_PREFIX).toBe(
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    // kube's message is the prefix, a newline, then its diff: the prefix is matched exactly.
    expect(errors[0]?.body.startsWith(`Forbidden: ${POD_UPDATE_FORBIDDEN_PREFIX}\n`)).toBe(true);
  });

  it("after kube's prefix, a diff of the harness's own: each changed member of the spec, not go-cmp's output", () => {
    // Upstream appends cmp.Diff(oldPod.Spec, mungedPodSpec), whose output go-cmp randomizes on purpose:
    // the harness prints its own list of changes instead, checked here for what it says, not its layout.
    const old = stored({
      volumes: [{ name: 'kube-api-access-x', projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }], defaultMode: 420 } }],
      containers: [container({ ports: [{ containerPort: 3000, protocol: 'TCP' }] })],
    });
    const updated = stored({
      volumes: (old.spec as JsonObject).volumes ?? null,
      containers: [container({ ports: [{ containerPort: 3030, protocol: 'TCP' }] })],
      hostname: 'web-0',
    });
    const [error] = validateUpdate(POD, updated, old);
    const [prefix, ...diff] = (error?.body ?? '').split('\n');
    expect(prefix).toBe(`Forbidden: ${POD_UPDATE_FORBIDDEN_PREFIX}`);
    expect(diff).toHaveLength(2);
    expect(diff).toEqual(expect.arrayContaining([expect.stringMatching(/containerPort.*3000.*3030/), expect.stringMatching(/hostname.*"web-0"/)]));
    expect(diff.join('\n')).not.toMatch(/volumes|kube-api-access/);
  });
});
