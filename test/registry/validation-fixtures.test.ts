/**
 * Registry validation against what a real kube-apiserver v1.36.2 did (test/fixtures, README.md in
 * each folder): the recorded 422 Invalid answers are reproduced exactly, and every object the apiserver
 * accepted (the validating webhooks' view of it, and what it stored) passes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cloneJson, isObject, type Json, type JsonObject } from '../../lib/kube/json';
import { invalid } from '../../lib/kube/status';
import { validateCreate, validateUpdate, type KindInfo } from '../../lib/registry/validation';

const FIXTURES = path.join(__dirname, '../fixtures');
const POD: KindInfo = { group: '', version: 'v1', kind: 'Pod', namespaced: true };

function load(folder: string, file: string): JsonObject {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, folder, file), 'utf8')) as JsonObject;
}

function objectAt(value: Json | undefined, ...keys: (string | number)[]): JsonObject {
  let at: Json | undefined = value;
  for (const key of keys) {
    if (typeof key === 'number') at = Array.isArray(at) ? at[key] : undefined;
    else at = isObject(at) ? at[key] : undefined;
  }
  if (!isObject(at)) throw new Error(`fixture has no object at ${keys.join('.')}`);
  return at;
}

function arrayAt(object: JsonObject, key: string): Json[] {
  const value = object[key];
  if (!Array.isArray(value)) throw new Error(`fixture has no array at ${key}`);
  return value;
}

/** A container appended by a webhook's patch, as the apiserver's decode defaults it (tagged image → IfNotPresent). */
function defaultedContainer(container: JsonObject): JsonObject {
  return {
    ...container,
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
  };
}

/** The mutated object the registry validated: a webhook's received object plus the container its patch appended. */
function withAppendedContainer(received: JsonObject, added: JsonObject): JsonObject {
  const object = cloneJson(received);
  const spec = objectAt(object, 'spec');
  spec.containers = [...arrayAt(spec, 'containers'), defaultedContainer(added)];
  return object;
}

function patchValue(call: JsonObject): JsonObject {
  const ops = call.patchOpsDecoded;
  if (!Array.isArray(ops) || ops.length !== 1) throw new Error('fixture call has not exactly one patch op');
  return objectAt(ops[0], 'value');
}

describe('recorded 422 Invalid answers (apiserver-outcomes, apiserver-policies)', () => {
  it('non-idempotent-sidecar: the second append of the same sidecar is a duplicate container name', () => {
    const fixture = load('apiserver-outcomes', 'non-idempotent-sidecar.json');
    const calls = arrayAt(fixture, 'webhookCalls').map((call) => objectAt(call));
    // seq 17, the reinvocation: it received a pod that already has foo-sidecar and appends it again.
    const last = objectAt(calls, calls.length - 1);
    const received = objectAt(last, 'admissionReviewReceived', 'request', 'object');
    const mutated = withAppendedContainer(received, patchValue(last));

    const errors = validateCreate(POD, mutated);
    expect(invalid(POD, 'p7', errors)).toEqual(objectAt(fixture, 'response', 'body'));
    expect(invalid(POD, 'p7', errors).message).toBe('Pod "p7" is invalid: spec.containers[2].name: Duplicate value: "foo-sidecar"');
    // The object the webhook received before its second patch was valid.
    expect(validateCreate(POD, received)).toEqual([]);
  });

  it('patch-remove-metadata-name: a webhook that removes metadata.name', () => {
    const fixture = load('apiserver-outcomes', 'patch-remove-metadata-name.json');
    const call = objectAt(fixture, 'webhookCalls', 0);
    const received = objectAt(call, 'admissionReviewReceived', 'request', 'object');
    const mutated = cloneJson(received);
    delete objectAt(mutated, 'metadata').name;

    const errors = validateCreate(POD, mutated);
    expect(invalid(POD, '', errors)).toEqual(objectAt(fixture, 'response', 'body'));
    expect(invalid(POD, '', errors).message).toBe('Pod "" is invalid: metadata.name: Required value: name or generateName is required');
    expect(validateCreate(POD, received)).toEqual([]);
  });

  describe('psa-restricted-sidecar: a privileged sidecar injected by a webhook', () => {
    const fixture = load('apiserver-policies', 'psa-restricted-sidecar.json');
    const call = objectAt(fixture, 'requests', 0, 'webhookCalls', 0);
    const received = objectAt(call, 'admissionReviewReceived', 'request', 'object');
    const mutated = withAppendedContainer(received, patchValue(call));

    it('is refused by pod validation under the default --allow-privileged=false', () => {
      const errors = validateCreate(POD, mutated);
      expect(invalid(POD, 'psa-1', errors).message).toBe(
        'Pod "psa-1" is invalid: spec.containers[1].securityContext.privileged: Forbidden: disallowed by cluster policy',
      );
      expect(errors).toEqual([
        { type: 'FieldValueForbidden', field: 'spec.containers[1].securityContext.privileged', body: 'Forbidden: disallowed by cluster policy' },
      ]);
      expect(validateCreate(POD, mutated, { allowPrivileged: false })).toEqual(errors);
    });

    it('passes pod validation with --allow-privileged=true (PodSecurity refuses it later, as recorded)', () => {
      expect(validateCreate(POD, mutated, { allowPrivileged: true })).toEqual([]);
    });
  });
});

interface Captured {
  file: string;
  operation: string;
  kind: KindInfo;
  object: JsonObject;
  oldObject?: JsonObject;
}

/** Every object a validating webhook saw in the captures: what kube-apiserver validated and accepted. */
function capturedObjects(): Captured[] {
  const folder = path.join(FIXTURES, 'apiserver-captures');
  const out: Captured[] = [];
  for (const file of fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const capture = load('apiserver-captures', file);
    const calls = Array.isArray(capture.calls) ? capture.calls : [];
    for (const call of calls) {
      if (!isObject(call) || typeof call.webhook !== 'string' || !call.webhook.startsWith('validate')) continue;
      const request = isObject(call.body) && isObject(call.body.request) ? call.body.request : undefined;
      if (!request || !isObject(request.object) || !isObject(request.kind)) continue;
      const operation = String(request.operation);
      // Subresources (status, scale, binding…) validate other objects than the one the webhook sees.
      if ((operation !== 'CREATE' && operation !== 'UPDATE') || request.subResource) continue;
      const gvk = request.kind;
      const kindName = String(gvk.kind);
      out.push({
        file,
        operation,
        kind: {
          group: String(gvk.group),
          version: String(gvk.version),
          kind: kindName,
          namespaced: typeof request.namespace === 'string' && kindName !== 'Namespace',
        },
        object: request.object,
        oldObject: isObject(request.oldObject) ? request.oldObject : undefined,
      });
    }
  }
  return out;
}

describe('objects a real kube-apiserver accepted are valid', () => {
  const captured = capturedObjects();

  it('the captures hold creates and updates of many kinds', () => {
    const kinds = new Set(captured.map((c) => c.kind.kind));
    for (const kind of ['Pod', 'Deployment', 'ConfigMap', 'Secret', 'Service', 'Namespace']) expect(kinds).toContain(kind);
    expect(captured.some((c) => c.operation === 'UPDATE')).toBe(true);
  });

  it.each(captured.filter((c) => c.operation === 'CREATE').map((c) => [c.file, c.kind.kind, c] as const))('create %s (%s)', (_file, _kind, c) => {
    expect(validateCreate(c.kind, c.object)).toEqual([]);
  });

  it.each(captured.filter((c) => c.operation === 'UPDATE' && c.oldObject).map((c) => [c.file, c.kind.kind, c] as const))(
    'update %s (%s)',
    (_file, _kind, c) => {
      expect(validateUpdate(c.kind, c.object, c.oldObject as JsonObject)).toEqual([]);
    },
  );

  const outcomes = fs
    .readdirSync(path.join(FIXTURES, 'apiserver-outcomes'))
    .filter((name) => name.endsWith('.json') && name !== 'VERSION.json')
    .sort()
    .map((file) => [file, load('apiserver-outcomes', file)] as const);

  /** What the apiserver answered a GET of the object with afterwards, when it was stored. */
  const stored: (readonly [string, JsonObject])[] = [];
  const keep = (file: string, after: Json | undefined): void => {
    if (isObject(after) && after.status === 200 && isObject(after.body) && isObject(after.body.metadata)) stored.push([file, after.body]);
  };
  for (const [file, fixture] of outcomes) keep(file, fixture.storedObjectAfter);
  for (const file of fs
    .readdirSync(path.join(FIXTURES, 'apiserver-policies'))
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const fixture = load('apiserver-policies', file);
    for (const request of Array.isArray(fixture.requests) ? fixture.requests : []) if (isObject(request)) keep(file, request.storedObjectAfter);
  }

  it.each(stored)('stored object of %s: valid as a create and as an update to itself', (_file, object) => {
    const kind = { ...POD, kind: String(object.kind) };
    expect(validateCreate(kind, object)).toEqual([]);
    expect(validateUpdate(kind, object, object)).toEqual([]);
  });

  it('every pod a webhook received in apiserver-outcomes is valid', () => {
    const seen: string[] = [];
    for (const [file, fixture] of outcomes) {
      const calls = Array.isArray(fixture.webhookCalls) ? fixture.webhookCalls : [];
      for (const call of calls) {
        const object =
          isObject(call) && isObject(call.admissionReviewReceived) && isObject(call.admissionReviewReceived.request)
            ? call.admissionReviewReceived.request.object
            : undefined;
        if (!isObject(object) || object.kind !== 'Pod') continue;
        seen.push(file);
        expect({ file, errors: validateCreate(POD, object) }).toEqual({ file, errors: [] });
      }
    }
    expect(seen.length).toBeGreaterThan(5);
  });
});
