/**
 * decodeTyped: kube-apiserver's decode of a patched object into its Go type. Exact texts come from a real
 * kube-apiserver v1.36.2 (fixtures) or from the Go sources named in lib/registry/decode.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cloneJson, isObject, type Json, type JsonObject } from '../../lib/kube/json';
import { decodeTyped, type DecodeResult } from '../../lib/registry/decode';
import { QUANTITY_FORMAT_ERROR } from '../../lib/kube/quantity';
import { structForKind } from '../../lib/registry/schema/table';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURES = path.join(__dirname, '../fixtures');

beforeAll(() => {
  // The schema table is generated, not committed: make it if this checkout has none yet.
  execFileSync(process.execPath, [path.join(ROOT, 'lib/registry/schema/build-table.mjs'), '--if-missing'], { cwd: ROOT });
});

function pod(extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', labels: { app: 'demo' } },
    spec: {
      containers: [
        { name: 'app', image: 'nginx', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m', memory: '128Mi' } } },
        { name: 'sidecar', image: 'busybox', ports: [{ containerPort: 8080, protocol: 'TCP' }] },
      ],
      ...extra,
    },
  };
}

function failure(result: DecodeResult): string {
  if (result.ok) throw new Error(`expected a decode error, got ${JSON.stringify(result.object)}`);
  return result.message;
}

function success(result: DecodeResult): Extract<DecodeResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a decoded object, got: ${result.message}`);
  return result;
}

/** Sets the value at a JSON pointer (the fixtures' patches are single replace/add ops). */
function applyOp(doc: JsonObject, op: { op: string; path: string; value: Json }): JsonObject {
  const copy = cloneJson(doc);
  const parts = op.path.split('/').slice(1);
  let node: Json = copy;
  for (const part of parts.slice(0, -1)) node = (node as JsonObject)[part] as Json;
  (node as JsonObject)[parts[parts.length - 1] as string] = op.value;
  return copy;
}

function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
  return out;
}

describe('recorded on kube-apiserver v1.36.2 (fixtures/apiserver-outcomes)', () => {
  it.each(['patch-wrong-type-labels', 'patch-wrong-type-replicas'])('%s: the same message', (name) => {
    const fixture = JSON.parse(fs.readFileSync(`${FIXTURES}/apiserver-outcomes/${name}.json`, 'utf8'));
    const call = fixture.webhookCalls[0];
    const { kind } = call.admissionReviewReceived.request;
    const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
    const patched = applyOp(call.admissionReviewReceived.request.object, call.patchOpsDecoded[0]);
    const expected = (fixture.response.body.message as string).replace(/^Internal error occurred: /, '');
    expect(failure(decodeTyped(apiVersion, kind.kind, patched))).toBe(expected);
  });

  it('states the two recorded texts', () => {
    const labels = pod();
    (labels.metadata as JsonObject).labels = 'oops';
    expect(failure(decodeTyped('v1', 'Pod', labels))).toBe(
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 'three' } };
    expect(failure(decodeTyped('apps/v1', 'Deployment', deployment))).toBe(
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });

  it('patch-unknown-field: /spec/bogusField is dropped silently', () => {
    const fixture = JSON.parse(fs.readFileSync(`${FIXTURES}/apiserver-outcomes/patch-unknown-field.json`, 'utf8'));
    const call = fixture.webhookCalls[0];
    const patched = applyOp(call.admissionReviewReceived.request.object, call.patchOpsDecoded[0]);
    const result = success(decodeTyped('v1', 'Pod', patched));
    expect(result.dropped).toEqual(['spec.bogusField']);
    expect((result.object.spec as JsonObject).bogusField).toBeUndefined();
    expect(fixture.response.status).toBe(201);
  });
});

describe('objects a real kube-apiserver sent (fixtures/apiserver-captures)', () => {
  const objects: Array<[string, string, string, JsonObject]> = [];
  for (const file of fs.readdirSync(`${FIXTURES}/apiserver-captures`).filter((f) => f.endsWith('.json'))) {
    const capture = JSON.parse(fs.readFileSync(`${FIXTURES}/apiserver-captures/${file}`, 'utf8'));
    for (const call of capture.calls ?? []) {
      const request = call.body?.request;
      if (!request) continue;
      const apiVersion = request.kind.group ? `${request.kind.group}/${request.kind.version}` : request.kind.version;
      for (const which of ['object', 'oldObject'] as const) {
        if (isObject(request[which])) objects.push([`${file} ${which}`, apiVersion, request.kind.kind, request[which]]);
      }
    }
  }

  it('holds objects of many kinds', () => {
    expect(new Set(objects.map(([, v, k]) => `${v} ${k}`)).size).toBeGreaterThan(8);
  });

  it.each(objects)('%s (%s %s) decodes to itself: no field unknown, nothing changed but nulls', (_, apiVersion, kind, object) => {
    if (structForKind(apiVersion, kind) === undefined) {
      // CONNECT options (PodExecOptions…) and custom resources are not in the table.
      expect(['PodExecOptions', 'PodAttachOptions', 'PodPortForwardOptions', 'PodProxyOptions', 'ServiceProxyOptions', 'NodeProxyOptions', 'Widget']).toContain(
        kind,
      );
      return;
    }
    const result = success(decodeTyped(apiVersion, kind, object));
    expect(result.dropped).toEqual([]);
    expect(result.object).toEqual(withoutNulls(object));
    expect(result.decodedAs).toEqual({ apiVersion, kind });
  });
});

describe('type errors, one per Go type class', () => {
  function podWith(mutate: (p: JsonObject) => void): JsonObject {
    const p = pod();
    mutate(p);
    return p;
  }
  const spec = (p: JsonObject) => p.spec as JsonObject;
  const container = (p: JsonObject, i = 0) => (spec(p).containers as JsonObject[])[i] as JsonObject;
  const crd = (schema: JsonObject): JsonObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  });

  it.each<[string, JsonObject, string]>([
    [
      'string',
      podWith((p) => ((p.metadata as JsonObject).name = 5)),
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    ],
    ['bool', podWith((p) => (spec(p).hostNetwork = 'yes')), 'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool'],
    ['int32', podWith((p) => (spec(p).priority = true)), 'json: cannot unmarshal bool into Go struct field PodSpec.spec.priority of type int32'],
    [
      'int64',
      podWith((p) => (spec(p).terminationGracePeriodSeconds = '30')),
      'json: cannot unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    ],
    [
      'float64',
      crd({ type: 'integer', maximum: 'ten' }),
      'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maximum of type float64',
    ],
    [
      '[]T',
      podWith((p) => (spec(p).containers = { name: 'x' })),
      'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
    ],
    [
      '[]string',
      podWith((p) => (container(p).args = 'run')),
      'json: cannot unmarshal string into Go struct field Container.spec.containers.args of type []string',
    ],
    [
      'map',
      podWith((p) => (spec(p).nodeSelector = ['a'])),
      'json: cannot unmarshal array into Go struct field PodSpec.spec.nodeSelector of type map[string]string',
    ],
    [
      'map value',
      podWith((p) => ((p.metadata as JsonObject).labels = { app: 1 })),
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    ],
    [
      'struct',
      podWith((p) => (spec(p).securityContext = 'restricted')),
      'json: cannot unmarshal string into Go struct field PodSpec.spec.securityContext of type v1.PodSecurityContext',
    ],
    [
      'slice element',
      podWith((p) => ((spec(p).containers as Json[])[1] = 'sidecar')),
      'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container',
    ],
    [
      'named map (v1.ResourceList)',
      podWith((p) => ((container(p).resources as JsonObject).limits = '1')),
      'json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList',
    ],
    [
      'named string (v1.PullPolicy)',
      podWith((p) => (container(p).imagePullPolicy = 1)),
      'json: cannot unmarshal number into Go struct field Container.spec.containers.imagePullPolicy of type v1.PullPolicy',
    ],
    [
      'types.UID',
      podWith((p) => ((p.metadata as JsonObject).uid = 7)),
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID',
    ],
    [
      'named slice element ([]v1.Capability)',
      podWith((p) => (container(p).securityContext = { capabilities: { add: [1] } })),
      'json: cannot unmarshal number into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type v1.Capability',
    ],
  ])('%s', (_, object, message) => {
    expect(failure(decodeTyped(object.apiVersion as string, object.kind as string, object))).toBe(message);
  });

  it('nested arrays: no indices in the field path (containers[1].ports[0].containerPort)', () => {
    const p = pod();
    ((container(p, 1).ports as JsonObject[])[0] as JsonObject).containerPort = '8080';
    expect(failure(decodeTyped('v1', 'Pod', p))).toBe(
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    );
  });

  it('names the embedded Go structs of inline fields in the path', () => {
    const volume = (v: JsonObject) => pod({ volumes: [{ name: 'v', ...v }] });
    expect(failure(decodeTyped('v1', 'Pod', volume({ configMap: 'cm' })))).toBe(
      'json: cannot unmarshal string into Go struct field Volume.spec.volumes.VolumeSource.configMap of type v1.ConfigMapVolumeSource',
    );
    expect(failure(decodeTyped('v1', 'Pod', volume({ configMap: { name: 5 } })))).toBe(
      'json: cannot unmarshal number into Go struct field ConfigMapVolumeSource.spec.volumes.VolumeSource.configMap.LocalObjectReference.name of type string',
    );
    const probe = pod();
    container(probe).readinessProbe = { httpGet: { path: 1 } };
    expect(failure(decodeTyped('v1', 'Pod', probe))).toBe(
      'json: cannot unmarshal number into Go struct field HTTPGetAction.spec.containers.readinessProbe.ProbeHandler.httpGet.path of type string',
    );
  });
});

describe('numbers', () => {
  it.each<[string, number, string]>([
    ['float into int32', 1.5, 'json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    [
      'int32 overflow',
      3000000000,
      'json: cannot unmarshal number 3000000000 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    ],
    [
      'int32 underflow',
      -2147483649,
      'json: cannot unmarshal number -2147483649 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    ],
  ])('%s', (_, value, message) => {
    const p = pod();
    (((p.spec as JsonObject).containers as JsonObject[])[0]?.ports as JsonObject[])[0]!.containerPort = value;
    expect(failure(decodeTyped('v1', 'Pod', p))).toBe(message);
  });

  it('takes the int32 and int64 limits themselves', () => {
    const p = pod({ terminationGracePeriodSeconds: -9223372036854775808, priority: 2147483647 });
    const spec = success(decodeTyped('v1', 'Pod', p)).object.spec as JsonObject;
    expect(spec.priority).toBe(2147483647);
    expect(spec.terminationGracePeriodSeconds).toBe(-9223372036854775808);
  });

  it('int64 overflow', () => {
    expect(failure(decodeTyped('v1', 'Pod', pod({ terminationGracePeriodSeconds: 9300000000000000000 })))).toBe(
      'json: cannot unmarshal number 9300000000000000000 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64',
    );
  });

  it('KNOWN DIVERGENCE: an integer written 1.0 or 1e2 is accepted (JSON.parse keeps no literal)', () => {
    // Go's strconv.ParseInt rejects the literals `1.0` and `1e2` (`cannot unmarshal number 1.0 into … int32`);
    // a parsed JSON value only holds the number, which is an integer.
    const p = pod({ priority: JSON.parse('1.0') as number, activeDeadlineSeconds: JSON.parse('1e2') as number });
    const spec = success(decodeTyped('v1', 'Pod', p)).object.spec as JsonObject;
    expect([spec.priority, spec.activeDeadlineSeconds]).toEqual([1, 100]);
  });
});

describe('types with their own UnmarshalJSON', () => {
  const resources = (limits: JsonObject) => {
    const p = pod();
    (((p.spec as JsonObject).containers as JsonObject[])[0] as JsonObject).resources = { limits };
    return p;
  };
  const limitsOf = (r: DecodeResult) => ((((success(r).object.spec as JsonObject).containers as JsonObject[])[0] as JsonObject).resources as JsonObject).limits;

  it('resource.Quantity: its own error text, no struct context', () => {
    expect(failure(decodeTyped('v1', 'Pod', resources({ cpu: 'lots' })))).toBe(QUANTITY_FORMAT_ERROR);
    expect(failure(decodeTyped('v1', 'Pod', resources({ cpu: true })))).toBe(QUANTITY_FORMAT_ERROR);
    expect(failure(decodeTyped('v1', 'Pod', resources({ cpu: '1.5mi' })))).toBe("unable to parse quantity's suffix");
  });

  it('resource.Quantity: strings and numbers, written back in canonical form', () => {
    expect(limitsOf(decodeTyped('v1', 'Pod', resources({ cpu: '0.5', memory: 1073741824, 'nvidia.com/gpu': 1 })))).toEqual({
      cpu: '500m',
      memory: '1073741824',
      'nvidia.com/gpu': '1',
    });
    expect(limitsOf(decodeTyped('v1', 'Pod', resources({ memory: '1024Mi', cpu: null })))).toEqual({ memory: '1Gi', cpu: '0' });
  });

  it('intstr.IntOrString: a string or an int32; other values fail as encoding/json into int32, with context', () => {
    const service = (targetPort: Json): JsonObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort }] },
    });
    const targetPortOf = (r: DecodeResult) => (((success(r).object.spec as JsonObject).ports as JsonObject[])[0] as JsonObject).targetPort;
    expect(targetPortOf(decodeTyped('v1', 'Service', service('http')))).toBe('http');
    expect(targetPortOf(decodeTyped('v1', 'Service', service(8080)))).toBe(8080);
    expect(failure(decodeTyped('v1', 'Service', service(true)))).toBe(
      'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
    expect(failure(decodeTyped('v1', 'Service', service(1.5)))).toBe(
      'json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
    expect(failure(decodeTyped('v1', 'Service', service({ port: 1 })))).toBe(
      'json: cannot unmarshal object into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
  });

  it('metav1.Time: RFC 3339, written back in UTC, whole seconds', () => {
    const at = (creationTimestamp: Json) => decodeTyped('v1', 'Pod', { ...pod(), metadata: { name: 'p', creationTimestamp } });
    expect((success(at('2024-01-01T10:00:00.123+02:00')).object.metadata as JsonObject).creationTimestamp).toBe('2024-01-01T08:00:00Z');
    expect((success(at('0001-01-01T00:00:00Z')).object.metadata as JsonObject).creationTimestamp).toBeUndefined(); // the zero time is null
    expect(failure(at('yesterday'))).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    expect(failure(at('2024-13-01T00:00:00Z'))).toBe('parsing time "2024-13-01T00:00:00Z": month out of range');
    expect(failure(at('2024-02-30T00:00:00Z'))).toBe('parsing time "2024-02-30T00:00:00Z": day out of range');
    expect(failure(at('2024-01-01 00:00:00Z'))).toBe('parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"');
    expect(failure(at('2024-01-01T00:00:00'))).toBe('parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"');
    expect(failure(at('2024-01-01T00:00:00Zjunk'))).toBe('parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"');
    expect(failure(at(1700000000))).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string');
  });

  it('metav1.MicroTime: exactly six fractional digits', () => {
    const event = (eventTime: Json): JsonObject => ({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'e', namespace: 'ns' },
      eventTime,
    });
    expect(success(decodeTyped('events.k8s.io/v1', 'Event', event('2024-01-01T00:00:00.123456+01:00'))).object.eventTime).toBe('2023-12-31T23:00:00.123456Z');
    expect(failure(decodeTyped('events.k8s.io/v1', 'Event', event('2024-01-01T00:00:00Z')))).toBe(
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });

  it('[]byte: base64 (StdEncoding) with its offset errors; written back padded', () => {
    const secret = (data: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data });
    expect(success(decodeTyped('v1', 'Secret', secret({ a: 'YWJj', b: 'YW\nJj', c: '' }))).object.data).toEqual({ a: 'YWJj', b: 'YWJj', c: '' });
    expect(failure(decodeTyped('v1', 'Secret', secret({ a: 'a!bc' })))).toBe('illegal base64 data at input byte 1');
    expect(failure(decodeTyped('v1', 'Secret', secret({ a: 'YWJjZA' })))).toBe('illegal base64 data at input byte 4');
    expect(failure(decodeTyped('v1', 'Secret', secret({ a: 'YQ==YQ==' })))).toBe('illegal base64 data at input byte 4');
    expect(failure(decodeTyped('v1', 'Secret', secret({ a: 5 })))).toBe('json: cannot unmarshal number into Go struct field Secret.data of type []uint8');
    expect(failure(decodeTyped('v1', 'Secret', secret('x' as unknown as JsonObject)))).toBe(
      'json: cannot unmarshal string into Go struct field Secret.data of type map[string][]uint8',
    );
  });

  it('runtime.RawExtension keeps anything', () => {
    const revision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'r' },
      revision: 1,
      data: { anything: [1, 'x', { y: null }], Bogus: true },
    };
    const result = success(decodeTyped('apps/v1', 'ControllerRevision', revision));
    expect(result.object.data).toEqual(revision.data);
    expect(result.dropped).toEqual([]);
  });

  it('JSONSchemaPropsOrBool: a schema or a boolean, else its own text', () => {
    const crd = (additionalProperties: Json): JsonObject => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'w.example.com' },
      spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { type: 'object', additionalProperties } } }] },
    });
    expect(success(decodeTyped('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crd(false))).ok).toBe(true);
    expect(failure(decodeTyped('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crd('no')))).toBe('boolean or JSON schema expected');
    expect(failure(decodeTyped('apiextensions.k8s.io/v1', 'CustomResourceDefinition', crd({ type: 5 })))).toBe(
      'json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.additionalProperties.type of type string',
    );
  });
});

describe('errors: which one is reported', () => {
  it('the first type error wins; decoding goes on after it', () => {
    const p = pod({ hostNetwork: 'yes', priority: 'high' });
    (p.metadata as JsonObject).labels = 'oops';
    expect(failure(decodeTyped('v1', 'Pod', p))).toBe(
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
  });

  it('an UnmarshalJSON error stops the decode and wins over an earlier type error', () => {
    const p = pod();
    (p.metadata as JsonObject).labels = 'oops';
    ((((p.spec as JsonObject).containers as JsonObject[])[0] as JsonObject).resources as JsonObject).limits = { cpu: 'lots' };
    expect(failure(decodeTyped('v1', 'Pod', p))).toBe(QUANTITY_FORMAT_ERROR);
  });
});

describe('unknown fields', () => {
  it('are dropped silently, with their paths; the rest keeps the input key order', () => {
    const p = pod();
    (p.spec as JsonObject).bogusField = 1;
    ((p.spec as JsonObject).containers as JsonObject[])[1]!.extra = { a: 1 };
    (p as JsonObject).zzz = true;
    const result = success(decodeTyped('v1', 'Pod', p));
    expect(result.dropped).toEqual(['spec.containers[1].extra', 'spec.bogusField', 'zzz']);
    expect(Object.keys(result.object)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(Object.keys(result.object.spec as JsonObject)).toEqual(['containers']);
  });

  it('matches field names case-sensitively: a wrong-case name is an unknown field', () => {
    const p = pod();
    (p as JsonObject).Metadata = { name: 'other' };
    ((p.spec as JsonObject).containers as JsonObject[])[0]!.Image = 'other';
    const result = success(decodeTyped('v1', 'Pod', p));
    expect(result.dropped).toEqual(['spec.containers[0].Image', 'Metadata']);
    expect((result.object.metadata as JsonObject).name).toBe('p');
  });

  it('is no error even when its value has any type', () => {
    expect(success(decodeTyped('v1', 'Pod', pod({ bogus: { deeply: [1, 'two'] } }))).dropped).toEqual(['spec.bogus']);
  });
});

describe('strings', () => {
  it('lose lone UTF-16 surrogates to U+FFFD, as Go decodes them', () => {
    const p = pod();
    (p.metadata as JsonObject).labels = { 'k\uD800': 'v\uDC00x' };
    (p.metadata as JsonObject).name = 'a\uD800';
    const metadata = success(decodeTyped('v1', 'Pod', p)).object.metadata as JsonObject;
    expect(metadata.name).toBe('a\uFFFD');
    expect(metadata.labels).toEqual({ 'k\uFFFD': 'v\uFFFDx' });
  });
});

describe('null', () => {
  it('leaves a field at its zero value (omitted), without an error', () => {
    const p = pod({ hostNetwork: null, containers: null });
    (p.metadata as JsonObject).labels = null;
    const result = success(decodeTyped('v1', 'Pod', p));
    expect(result.object.metadata).toEqual({ name: 'p', namespace: 'ns' });
    expect(result.object.spec).toEqual({});
  });

  it('makes a zero element in slices and maps', () => {
    const p = pod({ containers: [null], nodeSelector: { a: null } });
    const spec = success(decodeTyped('v1', 'Pod', p)).object.spec as JsonObject;
    expect(spec.containers).toEqual([{}]);
    expect(spec.nodeSelector).toEqual({ a: '' });
  });
});

describe('apiVersion and kind in the JSON', () => {
  it('may be missing: the type decoded into fills them in (and the object keeps none)', () => {
    const p = pod();
    delete p.apiVersion;
    delete p.kind;
    const result = success(decodeTyped('v1', 'Pod', p));
    expect(result.decodedAs).toEqual({ apiVersion: 'v1', kind: 'Pod' });
    expect(result.object.kind).toBeUndefined();
  });

  it('a kind the scheme does not know fails as the scheme says', () => {
    expect(failure(decodeTyped('v1', 'Pod', { ...pod(), kind: 'Bogus' }))).toBe(
      'no kind "Bogus" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    expect(failure(decodeTyped('apps/v1', 'Deployment', { apiVersion: 'v1', kind: 'Deployment', metadata: { name: 'd' } }))).toBe(
      'no kind "Deployment" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  it('another known kind: the object is decoded as that kind', () => {
    const result = success(decodeTyped('v1', 'Pod', { ...pod(), kind: 'ConfigMap', data: { a: 'b' } }));
    expect(result.decodedAs).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(result.dropped).toEqual(['spec']);
    expect(result.object.data).toEqual({ a: 'b' });
  });

  it('are read case-insensitively (standard encoding/json) before the typed decode', () => {
    const result = success(decodeTyped('v1', 'Pod', { ...pod(), KIND: 'ConfigMap' }));
    expect(result.decodedAs).toEqual({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(result.dropped).toContain('KIND');
  });

  it.each<[string, JsonObject, string]>([
    [
      'kind a number',
      { ...pod(), kind: 5 },
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string",
    ],
    [
      'apiVersion an object',
      { ...pod(), apiVersion: {} },
      "couldn't get version/kind; json parse error: json: cannot unmarshal object into Go struct field .apiVersion of type string",
    ],
    ['apiVersion with two slashes', { ...pod(), apiVersion: 'a/b/c' }, 'unexpected GroupVersion string: a/b/c'],
  ])('%s', (_, object, message) => {
    expect(failure(decodeTyped('v1', 'Pod', object))).toBe(message);
  });
});

describe('the decoded object', () => {
  it('is a new object: the input is not changed', () => {
    const p = pod({ bogus: 1 });
    const before = cloneJson(p);
    const result = success(decodeTyped('v1', 'Pod', p));
    expect(p).toEqual(before);
    expect(result.object).not.toBe(p);
  });

  it('refuses kinds outside the table (custom resources are not decoded here)', () => {
    expect(() => decodeTyped('example.com/v1', 'Widget', {})).toThrow('example.com/v1 Widget is not a built-in kind of the schema table');
  });
});
