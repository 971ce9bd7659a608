/**
 * The schema table of the built-in kinds, generated from the npm package kubernetes-models, and the Go
 * knowledge added to it by hand (named types, embedded structs).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMBEDDED_RULES } from '../../lib/registry/schema/go-embedded';
import { GO_NAMED_FIELD_TYPES } from '../../lib/registry/schema/go-names';
import {
  SCHEMA_TABLE_COMMAND,
  builtinKinds,
  goTypeName,
  schemaTablePackages,
  schemaTablePath,
  setSchemaTablePath,
  structByName,
  structForKind,
  type GoType,
  type StructType,
} from '../../lib/registry/schema/table';

const ROOT = path.join(__dirname, '..', '..');
const BUILD = path.join(ROOT, 'lib/registry/schema/build-table.mjs');

beforeAll(() => {
  // The table is generated, not committed: make it if this checkout has none yet.
  execFileSync(process.execPath, [BUILD, '--if-missing'], { cwd: ROOT });
});

function kind(apiVersion: string, name: string): StructType {
  const struct = structForKind(apiVersion, name);
  if (struct === undefined) throw new Error(`${apiVersion} ${name} is not in the table`);
  return struct;
}

function def(id: string): StructType {
  const struct = structByName(id);
  if (struct === undefined) throw new Error(`${id} is not in the table`);
  return struct;
}

function field(struct: StructType, name: string): GoType {
  const type = struct.fields.get(name);
  if (type === undefined) throw new Error(`${struct.id} has no field ${name}`);
  return type;
}

/** Follows json field names through structs, slices and maps. */
function typeAt(struct: StructType, ...names: string[]): GoType {
  let type: GoType = struct;
  for (const name of names) {
    while (type.kind === 'slice' || type.kind === 'map') type = type.elem;
    if (type.kind !== 'struct') throw new Error(`${name}: not a struct`);
    type = field(type, name);
  }
  return type;
}

describe('kinds', () => {
  it.each([
    ['v1', 'Pod', 'v1.Pod'],
    ['apps/v1', 'Deployment', 'v1.Deployment'],
    ['v1', 'Service', 'v1.Service'],
    ['v1', 'ConfigMap', 'v1.ConfigMap'],
    ['v1', 'Secret', 'v1.Secret'],
    ['v1', 'Namespace', 'v1.Namespace'],
    ['batch/v1', 'Job', 'v1.Job'],
    ['batch/v1', 'CronJob', 'v1.CronJob'],
    ['networking.k8s.io/v1', 'Ingress', 'v1.Ingress'],
    ['networking.k8s.io/v1', 'NetworkPolicy', 'v1.NetworkPolicy'],
    ['rbac.authorization.k8s.io/v1', 'Role', 'v1.Role'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRole', 'v1.ClusterRole'],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding', 'v1.RoleBinding'],
    ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'v1.ClusterRoleBinding'],
    ['autoscaling/v1', 'Scale', 'v1.Scale'],
    ['policy/v1', 'Eviction', 'v1.Eviction'],
    ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', 'v1.MutatingWebhookConfiguration'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'v1.CustomResourceDefinition'],
  ])('%s %s is %s', (apiVersion, name, goName) => {
    const struct = kind(apiVersion, name);
    expect(struct.goName).toBe(goName);
    expect(struct.gvk).toEqual({ apiVersion, kind: name });
    expect(struct.fields.has('metadata')).toBe(true);
  });

  it('has every top-level kind of the package, lists included', () => {
    const kinds = builtinKinds();
    expect(kinds.length).toBeGreaterThan(200);
    expect(kinds).toContain('v1 PodList');
    expect(kinds).toContain('apps/v1 StatefulSet');
  });

  it('KNOWN GAP: the CONNECT options kinds (v1 PodExecOptions…) are not in kubernetes-models', () => {
    // The OpenAPI document the package is generated from describes them only as query parameters of
    // the connect operations, so no definition exists; the table cannot have them without typing them
    // by hand, which this project does not do.
    for (const name of ['PodExecOptions', 'PodAttachOptions', 'PodPortForwardOptions', 'PodProxyOptions', 'ServiceProxyOptions', 'NodeProxyOptions']) {
      expect(structForKind('v1', name)).toBeUndefined();
    }
  });

  it('answers undefined for custom resources and unknown versions', () => {
    expect(structForKind('example.com/v1', 'Widget')).toBeUndefined();
    expect(structForKind('v2', 'Pod')).toBeUndefined();
  });
});

describe('field types', () => {
  it.each<[string, string, string[], string]>([
    ['v1', 'Pod', ['spec', 'containers', 'ports', 'containerPort'], 'int32'],
    ['v1', 'Pod', ['spec', 'terminationGracePeriodSeconds'], 'int64'],
    ['v1', 'Pod', ['spec', 'activeDeadlineSeconds'], 'int64'],
    ['v1', 'Pod', ['spec', 'hostNetwork'], 'bool'],
    ['v1', 'Pod', ['spec', 'containers'], '[]v1.Container'],
    ['v1', 'Pod', ['spec', 'containers', 'resources', 'limits'], 'v1.ResourceList'],
    ['v1', 'Pod', ['spec', 'containers', 'imagePullPolicy'], 'v1.PullPolicy'],
    ['v1', 'Pod', ['spec', 'containers', 'securityContext', 'capabilities', 'add'], '[]v1.Capability'],
    ['v1', 'Pod', ['spec', 'overhead'], 'v1.ResourceList'],
    ['v1', 'Pod', ['spec', 'nodeSelector'], 'map[string]string'],
    ['v1', 'Pod', ['spec', 'volumes', 'emptyDir', 'sizeLimit'], 'resource.Quantity'],
    ['v1', 'Pod', ['metadata', 'labels'], 'map[string]string'],
    ['v1', 'Pod', ['metadata', 'uid'], 'types.UID'],
    ['v1', 'Pod', ['metadata', 'creationTimestamp'], 'v1.Time'],
    ['v1', 'Pod', ['metadata', 'managedFields', 'fieldsV1'], 'v1.FieldsV1'],
    ['v1', 'Pod', ['status', 'phase'], 'v1.PodPhase'],
    ['apps/v1', 'Deployment', ['spec', 'replicas'], 'int32'],
    ['apps/v1', 'Deployment', ['spec', 'strategy', 'rollingUpdate', 'maxSurge'], 'intstr.IntOrString'],
    ['apps/v1', 'StatefulSet', ['spec', 'volumeClaimTemplates'], '[]v1.PersistentVolumeClaim'],
    ['apps/v1', 'ControllerRevision', ['data'], 'runtime.RawExtension'],
    ['v1', 'Service', ['spec', 'ports', 'targetPort'], 'intstr.IntOrString'],
    ['v1', 'Secret', ['data'], 'map[string][]uint8'],
    ['v1', 'ConfigMap', ['binaryData'], 'map[string][]uint8'],
    ['events.k8s.io/v1', 'Event', ['eventTime'], 'v1.MicroTime'],
    ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', ['webhooks', 'clientConfig', 'caBundle'], '[]uint8'],
    ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', ['webhooks', 'timeoutSeconds'], 'int32'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', ['spec', 'versions', 'schema', 'openAPIV3Schema', 'maximum'], 'float64'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', ['spec', 'versions', 'schema', 'openAPIV3Schema', 'default'], 'v1.JSON'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', ['spec', 'versions', 'schema', 'openAPIV3Schema', 'properties'], 'map[string]v1.JSONSchemaProps'],
    ['apiextensions.k8s.io/v1', 'CustomResourceDefinition', ['spec', 'versions', 'schema', 'openAPIV3Schema', 'items'], 'v1.JSONSchemaPropsOrArray'],
  ])('%s %s %j is %s', (apiVersion, name, names, goName) => {
    expect(goTypeName(typeAt(kind(apiVersion, name), ...names))).toBe(goName);
  });

  it('knows required fields and enums', () => {
    expect(def('io.k8s.api.core.v1.Container').required).toEqual(['name']);
    expect(def('io.k8s.api.core.v1.PodSpec').required).toEqual(['containers']);
    expect(def('io.k8s.api.core.v1.ContainerPort').enums.get('protocol')).toEqual(['SCTP', 'TCP', 'UDP']);
    const pullPolicy = typeAt(kind('v1', 'Pod'), 'spec', 'containers', 'imagePullPolicy');
    expect(pullPolicy).toEqual({ kind: 'string', enum: ['Always', 'IfNotPresent', 'Never'], name: 'v1.PullPolicy' });
  });

  it('knows the special types by kind', () => {
    const meta = def('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
    expect(field(meta, 'creationTimestamp').kind).toBe('time');
    expect(typeAt(kind('v1', 'Service'), 'spec', 'ports', 'targetPort').kind).toBe('intOrString');
    expect(typeAt(kind('v1', 'Pod'), 'spec', 'containers', 'resources', 'limits')).toMatchObject({ kind: 'map', elem: { kind: 'quantity' } });
    expect(typeAt(kind('v1', 'Secret'), 'data')).toEqual({ kind: 'map', elem: { kind: 'bytes' } });
  });

  it('refers to one struct object per definition (cycles included)', () => {
    const props = def('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps');
    expect(field(props, 'not')).toBe(props);
    expect(typeAt(kind('v1', 'Pod'), 'spec')).toBe(def('io.k8s.api.core.v1.PodSpec'));
    expect(structForKind('v1', 'Pod')).toBe(structForKind('v1', 'Pod'));
  });
});

describe('goTypeName (reflect.Type.String)', () => {
  it.each<[GoType, string]>([
    [{ kind: 'string' }, 'string'],
    [{ kind: 'int64' }, 'int64'],
    [{ kind: 'bytes' }, '[]uint8'],
    [{ kind: 'slice', elem: { kind: 'slice', elem: { kind: 'string' } } }, '[][]string'],
    [{ kind: 'map', elem: { kind: 'slice', elem: { kind: 'int32' } } }, 'map[string][]int32'],
    [{ kind: 'map', elem: { kind: 'string' }, name: 'v1.ResourceList' }, 'v1.ResourceList'],
    [{ kind: 'quantity', id: 'io.k8s.apimachinery.pkg.api.resource.Quantity', goName: 'resource.Quantity' }, 'resource.Quantity'],
  ])('%j → %s', (type, expected) => {
    expect(goTypeName(type)).toBe(expected);
  });
});

describe('hand-written Go knowledge stays in step with the package', () => {
  it('every named type refers to a field the table has', () => {
    for (const [id, names] of Object.entries(GO_NAMED_FIELD_TYPES)) {
      const struct = def(id);
      for (const name of Object.keys(names)) expect([id, struct.fields.has(name)]).toEqual([id, true]);
    }
  });

  it('every embedded-struct rule names fields the table has', () => {
    let applied = 0;
    for (const rule of EMBEDDED_RULES) {
      for (const id of rule.structs) {
        const struct = structByName(id);
        if (struct === undefined) continue; // a version the package does not have
        applied++;
        for (const name of [...(rule.fields ?? []), ...(rule.except ?? [])]) expect([id, name, struct.fields.has(name)]).toEqual([id, name, true]);
      }
    }
    expect(applied).toBeGreaterThan(15);
  });

  it('puts embedded Go names on the promoted fields', () => {
    expect(def('io.k8s.api.core.v1.Volume').embedded.get('configMap')).toEqual(['VolumeSource']);
    expect(def('io.k8s.api.core.v1.Volume').embedded.has('name')).toBe(false);
    expect(def('io.k8s.api.admissionregistration.v1.NamedRuleWithOperations').embedded.get('apiGroups')).toEqual(['RuleWithOperations', 'Rule']);
    expect(kind('v1', 'Pod').embedded.get('kind')).toEqual(['TypeMeta']);
  });
});

describe('the table file', () => {
  it('was built from the installed packages', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/kubernetes-models/package.json'), 'utf8')).version;
    expect(schemaTablePackages()['kubernetes-models']).toBe(installed);
  });

  it('is rebuilt byte for byte from the same packages, and stays small', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kube-schemas-')), 'kube-schemas.json');
    try {
      execFileSync(process.execPath, [BUILD, '--out', out], { cwd: ROOT });
      const rebuilt = fs.readFileSync(out);
      expect(rebuilt.equals(fs.readFileSync(schemaTablePath()))).toBe(true);
      expect(rebuilt.length).toBeLessThan(400_000);
    } finally {
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
    }
  });

  it('missing, gives an error that names the command making it', () => {
    const missing = path.join(os.tmpdir(), 'no-such-dir-for-kube-schemas', 'kube-schemas.json');
    setSchemaTablePath(missing);
    try {
      expect(() => structForKind('v1', 'Pod')).toThrow(`${missing} could not be read. Make it with \`${SCHEMA_TABLE_COMMAND}\``);
    } finally {
      setSchemaTablePath(undefined);
    }
    expect(structForKind('v1', 'Pod')).toBeDefined();
  });
});
