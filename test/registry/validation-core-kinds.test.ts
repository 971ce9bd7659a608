/**
 * Service, ConfigMap, Secret, Namespace, ServiceAccount, ReplicationController and PodTemplate
 * validation with kube's texts (pkg/apis/core/validation, as their strategies in pkg/registry/core call it).
 */
import type { JsonObject } from '../../lib/kube/json';
import type { FieldError } from '../../lib/kube/status';
import { validateCreate, validateUpdate, type KindInfo } from '../../lib/registry/validation';

const texts = (errors: readonly FieldError[]): string[] => errors.map((e) => `${e.field}: ${e.body}`);
const core = (kind: string, namespaced = true): KindInfo => ({ group: '', version: 'v1', kind, namespaced });
const SERVICE = core('Service');
const CONFIG_MAP = core('ConfigMap');
const SECRET = core('Secret');
const NAMESPACE = core('Namespace', false);
const SERVICE_ACCOUNT = core('ServiceAccount');
const REPLICATION_CONTROLLER = core('ReplicationController');
const POD_TEMPLATE = core('PodTemplate');
const STORED = { uid: 'u-1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' };

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function service(spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'ns', ...metadata },
    spec: {
      type: 'ClusterIP',
      selector: { app: 'web' },
      ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
      sessionAffinity: 'None',
      clusterIP: '10.0.0.10',
      clusterIPs: ['10.0.0.10'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      ...spec,
    },
  };
}

function configMap(data: JsonObject, extra: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns', ...metadata }, data, ...extra };
}

function secret(type: string, data: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns', ...metadata }, type, data };
}

const base64 = (text: string): string => Buffer.from(text).toString('base64');

function podTemplateSpec(labels: JsonObject): JsonObject {
  return {
    metadata: { labels },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
          resources: {},
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  };
}

function replicationController(spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'rc', namespace: 'ns' },
    spec: { replicas: 1, selector: { app: 'web' }, template: podTemplateSpec({ app: 'web' }), ...spec },
  };
}

describe('valid objects', () => {
  it.each<[string, KindInfo, JsonObject]>([
    ['Service', SERVICE, service()],
    ['headless Service', SERVICE, service({ clusterIP: 'None', clusterIPs: ['None'] })],
    [
      'NodePort Service',
      SERVICE,
      service({
        type: 'NodePort',
        externalTrafficPolicy: 'Cluster',
        ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP', nodePort: 30080 }],
      }),
    ],
    ['ConfigMap', CONFIG_MAP, configMap({ 'app.properties': 'a=b', KEY_NAME: 'x', '.hidden': 'y' }, { binaryData: { 'logo.png': base64('png') } })],
    ['Opaque Secret', SECRET, secret('Opaque', { password: base64('hunter2') })],
    ['TLS Secret', SECRET, secret('kubernetes.io/tls', { 'tls.crt': base64('c'), 'tls.key': base64('k') })],
    ['dockerconfigjson Secret', SECRET, secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': base64('{"auths":{}}') })],
    ['custom Secret type', SECRET, secret('example.com/custom')],
    ['Namespace', NAMESPACE, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' }, spec: { finalizers: ['kubernetes'] } }],
    ['ServiceAccount', SERVICE_ACCOUNT, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'ns' } }],
    ['ReplicationController', REPLICATION_CONTROLLER, replicationController()],
    ['PodTemplate', POD_TEMPLATE, { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'pt', namespace: 'ns' }, template: podTemplateSpec({ a: 'b' }) }],
  ])('%s', (_title, k, object) => {
    expect(validateCreate(k, object)).toEqual([]);
  });
});

describe('Service', () => {
  it.each<[string, JsonObject, string[]]>([
    ['no ports', service({ ports: [] }), ['spec.ports: Required value']],
    [
      'port numbers, names, protocols, targetPort',
      service({
        ports: [
          { name: 'http', port: 0, targetPort: 0, protocol: 'TCP' },
          { name: 'http', port: 70000, targetPort: 'Bad_Name', protocol: 'HTTP' },
        ],
      }),
      [
        'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
        'spec.ports[1].name: Duplicate value: "http"',
        'spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.ports[1].targetPort: Invalid value: "Bad_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
    ],
    [
      'several unnamed ports',
      service({
        ports: [
          { port: 80, targetPort: 80, protocol: 'TCP' },
          { port: 81, targetPort: 81, protocol: 'TCP' },
        ],
      }),
      ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value'],
    ],
    [
      // The duplicate key is an internal core.ServicePort, printed with its Go field names.
      'the same port and protocol twice',
      service({
        ports: [
          { name: 'a', port: 80, targetPort: 80, protocol: 'TCP' },
          { name: 'b', port: 80, targetPort: 81, protocol: 'TCP' },
        ],
      }),
      ['spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}'],
    ],
    ['type', service({ type: 'Foo' }), ['spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['selector label key', service({ selector: { 'bad key': 'x' } }), [`spec.selector: Invalid value: "bad key": ${NAME_PART_MSG}`]],
    [
      'clusterIP not an IP',
      service({ clusterIP: '300.1.1.1', clusterIPs: ['300.1.1.1'] }),
      ['spec.clusterIPs[0]: Invalid value: "300.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'],
    ],
    [
      'Service names are DNS-1035 labels',
      service({}, { name: '1web' }),
      [
        "metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'nodePort on a ClusterIP Service',
      service({ ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP', nodePort: 30080 }] }),
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
    [
      'ExternalName without a name',
      service({ type: 'ExternalName', externalName: '', clusterIP: '', clusterIPs: null, ipFamilies: null, ipFamilyPolicy: null }),
      ['spec.externalName: Required value'],
    ],
    ['sessionAffinity', service({ sessionAffinity: 'Sticky' }), ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']],
  ])('%s', (_title, object, expected) => {
    expect(texts(validateCreate(SERVICE, object))).toEqual(expected);
  });

  it('a cluster IP may not change', () => {
    const updated = service({ clusterIP: '10.0.0.11', clusterIPs: ['10.0.0.11'] }, STORED);
    expect(texts(validateUpdate(SERVICE, updated, service({}, STORED)))).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.0.0.11"]: may not change once set']);
  });
});

describe('ConfigMap', () => {
  it('keys are config keys (checked in sorted order: Go map order is random)', () => {
    expect(texts(validateCreate(CONFIG_MAP, configMap({ 'a b': 'x', '..': 'y', 'ok.key': 'z' })))).toEqual([
      'data[..]: Invalid value: "..": must not be \'..\'',
      `data[a b]: Invalid value: "a b": ${CONFIG_KEY_MSG}`,
    ]);
  });

  it('a key in both data and binaryData', () => {
    expect(texts(validateCreate(CONFIG_MAP, configMap({ a: 'x' }, { binaryData: { a: base64('x') } })))).toEqual([
      'data[a]: Invalid value: "a": duplicate of key present in binaryData',
    ]);
  });

  it('more than 1 MiB of data is reported on the empty path', () => {
    expect(texts(validateCreate(CONFIG_MAP, configMap({ a: 'x'.repeat(1024 * 1024 - 1) })))).toEqual([]);
    expect(texts(validateCreate(CONFIG_MAP, configMap({ a: 'x'.repeat(1024 * 1024 + 1) })))).toEqual(['[]: Too long: may not be more than 1048576 bytes']);
  });

  it('an immutable ConfigMap keeps its data and stays immutable', () => {
    const old = configMap({ a: 'x' }, { immutable: true }, STORED);
    expect(texts(validateUpdate(CONFIG_MAP, { ...old, data: { a: 'y' } }, old))).toEqual(['data: Forbidden: field is immutable when `immutable` is set']);
    expect(texts(validateUpdate(CONFIG_MAP, { ...old, immutable: false }, old))).toEqual(['immutable: Forbidden: field is immutable when `immutable` is set']);
  });
});

describe('Secret', () => {
  it.each<[string, JsonObject, string[]]>([
    ['keys are config keys', secret('Opaque', { 'a/b': base64('x') }), [`data[a/b]: Invalid value: "a/b": ${CONFIG_KEY_MSG}`]],
    ['TLS needs both keys', secret('kubernetes.io/tls', { 'tls.crt': base64('c') }), ['data[tls.key]: Required value']],
    [
      'dockerconfigjson must be JSON (the contents are redacted)',
      secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': base64('not json') }),
      ["data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character 'o' in literal null (expecting 'u')"],
    ],
    [
      'service account token needs the account name',
      secret('kubernetes.io/service-account-token'),
      ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
    ],
    ['basic auth', secret('kubernetes.io/basic-auth'), ['data[username]: Required value', 'data[password]: Required value']],
    ['ssh auth', secret('kubernetes.io/ssh-auth'), ['data[ssh-privatekey]: Required value']],
  ])('%s', (_title, object, expected) => {
    expect(texts(validateCreate(SECRET, object))).toEqual(expected);
  });

  it('the type is immutable', () => {
    const old = secret('Opaque', { a: base64('x') }, STORED);
    expect(texts(validateUpdate(SECRET, { ...old, type: 'kubernetes.io/tls' }, old))).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'data[tls.crt]: Required value',
      'data[tls.key]: Required value',
    ]);
  });
});

describe('Namespace, ServiceAccount, ReplicationController, PodTemplate', () => {
  it('a Namespace name is a DNS label; its spec finalizers are kube finalizer names', () => {
    const object = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Team.A' }, spec: { finalizers: ['custom'] } };
    expect(texts(validateCreate(NAMESPACE, object))).toEqual([
      `metadata.name: Invalid value: "Team.A": ${LABEL_MSG}`,
      'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('a ServiceAccount name is a DNS subdomain', () => {
    const object = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Bad_SA', namespace: 'ns' } };
    expect(texts(validateCreate(SERVICE_ACCOUNT, object))).toEqual([`metadata.name: Invalid value: "Bad_SA": ${SUBDOMAIN_MSG}`]);
  });

  it('a ReplicationController selector must match its template', () => {
    expect(texts(validateCreate(REPLICATION_CONTROLLER, replicationController({ selector: { app: 'other' }, replicas: -1 })))).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
    expect(texts(validateCreate(REPLICATION_CONTROLLER, replicationController({ selector: {} })))).toEqual(['spec.selector: Required value']);
  });

  it('a PodTemplate validates its pod spec under template', () => {
    const object = {
      apiVersion: 'v1',
      kind: 'PodTemplate',
      metadata: { name: 'pt', namespace: 'ns' },
      template: {
        ...podTemplateSpec({ a: 'b' }),
        spec: { containers: [], restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst' },
      },
    };
    expect(texts(validateCreate(POD_TEMPLATE, object))).toEqual(['template.spec.containers: Required value']);
  });
});
