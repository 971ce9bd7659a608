/**
 * ObjectMeta validation for every kind, with kube's texts: apimachinery api/validation/objectmeta.go,
 * the name functions of api/validation/generic.go and path/name.go, core validation's finalizer rule,
 * and the generic store's own checks (apiserver pkg/registry/rest create.go / update.go).
 */
import type { JsonObject } from '../../lib/kube/json';
import { invalid as invalidStatus, type FieldError } from '../../lib/kube/status';
import { validateCreate, validateUpdate, type KindInfo } from '../../lib/registry/validation';

const CONFIG_MAP: KindInfo = { group: '', version: 'v1', kind: 'ConfigMap', namespaced: true };
const WIDGET: KindInfo = { group: 'example.com', version: 'v1', kind: 'Widget', namespaced: true };
const CLUSTER_WIDGET: KindInfo = { group: 'example.com', version: 'v1', kind: 'ClusterWidget', namespaced: false };
const CLUSTER_ROLE: KindInfo = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', namespaced: false };
const NAMESPACE: KindInfo = { group: '', version: 'v1', kind: 'Namespace', namespaced: false };
const SERVICE_ACCOUNT: KindInfo = { group: '', version: 'v1', kind: 'ServiceAccount', namespaced: true };

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

const texts = (errors: readonly FieldError[]): string[] => errors.map((e) => `${e.field}: ${e.body}`);

/** An object of `kind` with only metadata (a kind without specific rules, or a ConfigMap without data). */
function objectWith(kind: KindInfo, metadata: JsonObject): JsonObject {
  return { apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version, kind: kind.kind, metadata };
}

function createErrors(kind: KindInfo, metadata: JsonObject): string[] {
  return texts(validateCreate(kind, objectWith(kind, metadata)));
}

describe('metadata.name and generateName on create', () => {
  it.each<[string, KindInfo, JsonObject, string[]]>([
    ['no name nor generateName', CONFIG_MAP, { namespace: 'ns' }, ['metadata.name: Required value: name or generateName is required']],
    // BeforeCreate generates the name before validation; only the generateName prefix is then checked on its own.
    ['a generated name', CONFIG_MAP, { generateName: 'web-', name: 'web-x7k2p', namespace: 'ns' }, []],
    [
      'an invalid generateName (its trailing dash is masked)',
      CONFIG_MAP,
      { generateName: 'Web-', name: 'web-x7k2p', namespace: 'ns' },
      [`metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_MSG}`],
    ],
    ['a subdomain name with dots', CONFIG_MAP, { name: 'a.b-c.d', namespace: 'ns' }, []],
    ['an uppercase name', CONFIG_MAP, { name: 'Bad.Name', namespace: 'ns' }, [`metadata.name: Invalid value: "Bad.Name": ${SUBDOMAIN_MSG}`]],
    [
      'a name longer than 253 bytes',
      CONFIG_MAP,
      { name: 'x'.repeat(254), namespace: 'ns' },
      [`metadata.name: Invalid value: "${'x'.repeat(254)}": must be no more than 253 bytes`],
    ],
    ['a CRD kind: DNS subdomain too', WIDGET, { name: 'Bad_Name', namespace: 'ns' }, [`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`]],
    // RBAC objects only need a valid path segment.
    ['an RBAC name with colons', CLUSTER_ROLE, { name: 'system:controller:foo' }, []],
    [
      'an RBAC name with / and %',
      CLUSTER_ROLE,
      { name: 'a/b%c' },
      ['metadata.name: Invalid value: "a/b%c": may not contain \'/\'', 'metadata.name: Invalid value: "a/b%c": may not contain \'%\''],
    ],
    ['an RBAC name of ..', CLUSTER_ROLE, { name: '..' }, ['metadata.name: Invalid value: "..": may not be \'..\'']],
    // Namespaces are DNS labels: a valid subdomain with dots gets its own text.
    ['a namespace name with dots', NAMESPACE, { name: 'a.b' }, ['metadata.name: Invalid value: "a.b": must not contain dots']],
    ['a namespace name with an underscore', NAMESPACE, { name: 'a_b' }, [`metadata.name: Invalid value: "a_b": ${LABEL_MSG}`]],
  ])('%s', (_title, kind, metadata, expected) => {
    expect(createErrors(kind, metadata)).toEqual(expected);
  });

  it('the recorded text for a pod whose name a webhook removed', () => {
    const errors = validateCreate(CONFIG_MAP, objectWith(CONFIG_MAP, { namespace: 'ns' }));
    expect(invalidStatus(CONFIG_MAP, '', errors).message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
    expect(errors).toEqual([{ type: 'FieldValueRequired', field: 'metadata.name', body: 'Required value: name or generateName is required' }]);
  });
});

describe('metadata.namespace by scope', () => {
  it.each<[string, KindInfo, JsonObject, string[]]>([
    ['namespaced kind without a namespace', CONFIG_MAP, { name: 'a' }, ['metadata.namespace: Required value']],
    ['cluster-scoped kind with a namespace', CLUSTER_WIDGET, { name: 'a', namespace: 'ns' }, ['metadata.namespace: Forbidden: not allowed on this type']],
    ['an invalid namespace name', CONFIG_MAP, { name: 'a', namespace: 'Bad_NS' }, [`metadata.namespace: Invalid value: "Bad_NS": ${LABEL_MSG}`]],
    ['cluster-scoped kind without a namespace', CLUSTER_WIDGET, { name: 'a' }, []],
  ])('%s', (_title, kind, metadata, expected) => {
    expect(createErrors(kind, metadata)).toEqual(expected);
  });
});

describe('labels, annotations, generation', () => {
  it('label keys and values, one error per failed rule, on the map field (keys in sorted order: Go map order is random)', () => {
    const labels = { ['x'.repeat(64)]: 'v', ok: 'y'.repeat(64), 'kubernetes.io/': 'a', 'UPPER.com/x': 'a', fine: '-bad-', 'a/b/c': 'x' };
    expect(createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', labels })).toEqual([
      `metadata.labels: Invalid value: "UPPER.com/x": prefix part ${SUBDOMAIN_MSG}`,
      `metadata.labels: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      `metadata.labels: Invalid value: "-bad-": ${LABEL_VALUE_MSG}`,
      'metadata.labels: Invalid value: "kubernetes.io/": name part must be non-empty',
      `metadata.labels: Invalid value: "kubernetes.io/": ${NAME_PART_MSG}`,
      `metadata.labels: Invalid value: "${'y'.repeat(64)}": must be no more than 63 bytes`,
      `metadata.labels: Invalid value: "${'x'.repeat(64)}": name part must be no more than 63 bytes`,
    ]);
  });

  it('annotation keys are qualified names ignoring case', () => {
    expect(createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', annotations: { 'UPPER.example.com/Key': 'ok', 'Bad Key': 'v' } })).toEqual([
      `metadata.annotations: Invalid value: "Bad Key": ${NAME_PART_MSG}`,
    ]);
  });

  it('annotations total at most 256 KiB of keys and values', () => {
    const limit = 256 * 1024;
    const at = (valueBytes: number): JsonObject => ({ name: 'a', namespace: 'ns', annotations: { big: 'x'.repeat(valueBytes) } });
    expect(createErrors(CONFIG_MAP, at(limit - 3))).toEqual([]);
    expect(createErrors(CONFIG_MAP, at(limit - 2))).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
    // Multi-byte characters count by their UTF-8 bytes.
    expect(createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', annotations: { big: 'é'.repeat(limit / 2) } })).toEqual([
      'metadata.annotations: Too long: may not be more than 262144 bytes',
    ]);
  });

  it('a negative generation', () => {
    expect(createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', generation: -1 })).toEqual([
      'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('ownerReferences, finalizers, managedFields', () => {
  it('owner references: empty members, banned owners, two controllers (errors name the list, not an index)', () => {
    const ownerReferences: JsonObject[] = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true },
      { apiVersion: '', kind: '', name: '', uid: '' },
      { apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u2' },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u3', controller: true, blockOwnerDeletion: true },
    ];
    expect(createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', ownerReferences })).toEqual([
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u2"}: /v1, Kind=Event is disallowed from being an owner',
      'metadata.ownerReferences: Invalid value: [{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"u1","controller":true},{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u2"},{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"u3","controller":true,"blockOwnerDeletion":true}]: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/rs and Deployment/d',
    ]);
  });

  it('finalizers: qualified names, orphan with foregroundDeletion, and (built-in kinds) kube-specific names', () => {
    const finalizers = ['kubernetes', 'example.com/x', 'custom', 'orphan', 'foregroundDeletion', 'bad name/x'];
    expect(createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', finalizers })).toEqual([
      `metadata.finalizers: Invalid value: "bad name/x": prefix part ${SUBDOMAIN_MSG}`,
      'metadata.finalizers: Invalid value: ["kubernetes","example.com/x","custom","orphan","foregroundDeletion","bad name/x"]: finalizer orphan and foregroundDeletion cannot be both set',
      'metadata.finalizers[2]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('custom resources only get the generic finalizer rule; built-in kinds also the kube-specific one', () => {
    // A custom resource's metadata is checked by apimachinery's ValidateObjectMetaAccessor, whose finalizer
    // check is only IsQualifiedName; core's validateKubeFinalizerName is for built-in kinds.
    expect(createErrors(WIDGET, { name: 'a', namespace: 'ns', finalizers: ['custom'] })).toEqual([]);
    expect(createErrors(SERVICE_ACCOUNT, { name: 'a', namespace: 'ns', finalizers: ['custom'] })).toEqual([
      'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('managed fields', () => {
    expect(
      createErrors(CONFIG_MAP, { name: 'a', namespace: 'ns', managedFields: [{ manager: 'x\u0007', operation: 'Patch', fieldsType: 'FieldsV2' }] }),
    ).toEqual([
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
      'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[0].manager: Invalid value: "x\\a": invalid character U+0007 (at position 1)',
    ]);
  });
});

describe('ObjectMeta on update', () => {
  const oldMeta = { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', creationTimestamp: '2026-01-01T00:00:00Z', generation: 2 };
  const old = objectWith(CONFIG_MAP, oldMeta);
  const updated = (meta: JsonObject): JsonObject => objectWith(CONFIG_MAP, { ...oldMeta, ...meta });

  it('an unchanged object is valid', () => {
    expect(validateUpdate(CONFIG_MAP, old, old)).toEqual([]);
  });

  it('immutable members; the store checks them, then the strategy again (the message dedupes, causes do not)', () => {
    const errors = validateUpdate(
      CONFIG_MAP,
      updated({ name: 'b', namespace: 'other', uid: 'u2', creationTimestamp: '2026-01-02T00:00:00Z', resourceVersion: '', generation: 1 }),
      old,
    );
    const once = [
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.namespace: Invalid value: "other": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
      'metadata.creationTimestamp: Invalid value: "2026-01-02T00:00:00Z": field is immutable',
    ];
    expect(texts(errors)).toEqual([...once, ...once]);
    expect(invalidStatus(CONFIG_MAP, 'b', errors).message).toBe(`ConfigMap "b" is invalid: [${once.join(', ')}]`);
    expect(invalidStatus(CONFIG_MAP, 'b', errors).details?.causes).toHaveLength(12);
  });

  it('the same timestamp written differently is not a change', () => {
    expect(validateUpdate(CONFIG_MAP, updated({ creationTimestamp: '2026-01-01T01:00:00+01:00' }), old)).toEqual([]);
  });

  it('a bad label on update is reported by each of the checks that run (generic create, generic update, strategy)', () => {
    const label = `metadata.labels: Invalid value: "bad key": ${NAME_PART_MSG}`;
    const errors = validateUpdate(CONFIG_MAP, updated({ labels: { 'bad key': 'v' } }), old);
    // rest/update.go validateCommonFields (ValidateObjectMetaAccessor + ValidateObjectMetaAccessorUpdate), then
    // ValidateConfigMapUpdate (ValidateObjectMetaUpdate, then ValidateConfigMap's ValidateObjectMeta).
    expect(texts(errors)).toEqual([label, label, label, label]);
    expect(invalidStatus(CONFIG_MAP, 'a', errors).message).toBe(`ConfigMap "a" is invalid: ${label}`);
  });

  it('no new finalizers while the object is being deleted; deletion members are immutable', () => {
    const deleting = updated({ deletionTimestamp: '2026-01-03T00:00:00Z', deletionGracePeriodSeconds: 30, finalizers: ['example.com/a'] });
    const withFinalizers = { ...deleting, metadata: { ...(deleting.metadata as JsonObject), finalizers: ['example.com/a', 'example.com/c', 'example.com/b'] } };
    const forbiddenText =
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "example.com/c"}';
    expect(texts(validateUpdate(CONFIG_MAP, withFinalizers, deleting))).toEqual([forbiddenText, forbiddenText]);

    const changed = {
      ...deleting,
      metadata: { ...(deleting.metadata as JsonObject), deletionGracePeriodSeconds: 0, deletionTimestamp: '2026-01-04T00:00:00Z' },
    };
    const immutable = [
      'metadata.deletionTimestamp: Invalid value: "2026-01-04T00:00:00Z": field is immutable',
      'metadata.deletionGracePeriodSeconds: Invalid value: 0: field is immutable',
    ];
    expect(texts(validateUpdate(CONFIG_MAP, changed, deleting))).toEqual([...immutable, ...immutable]);
  });

  it('kinds without specific rules get the same update checks', () => {
    const widgetOld = objectWith(WIDGET, oldMeta);
    const widgetNew = objectWith(WIDGET, { ...oldMeta, name: 'b' });
    expect(texts(validateUpdate(WIDGET, widgetNew, widgetOld))).toEqual([
      'metadata.name: Invalid value: "b": field is immutable',
      'metadata.name: Invalid value: "b": field is immutable',
    ]);
  });
});
