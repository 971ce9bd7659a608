import type { JsonObject } from '../../../lib/kube/json';
import { applyMutationJsonPatch, compileMutation } from '../../../lib/policy/mutating';
import { activation, policyMutationEnvironment } from './helpers';

const POD: JsonObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { app: 't' } },
  spec: { containers: [{ name: 'app', image: 'app:1' }] },
};

describe('JSONPatch mutations (patch/json_patch.go, evanphx/json-patch v4 as for webhooks)', () => {
  it('apply the operations an expression gives', async () => {
    const env = await policyMutationEnvironment();
    const compiled = compileMutation(
      env,
      'JSONPatch',
      '[JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/owner"), value: object.metadata.name}, JSONPatch{op: "add", path: "/spec/containers/-", value: Object.spec.containers{name: "side", image: "side:1"}}]',
    );
    if (!compiled.ok) throw new Error(compiled.error);
    const evaluated = compiled.evaluate(activation(POD));
    if (!evaluated.ok || evaluated.patchType !== 'JSONPatch') throw new Error(JSON.stringify(evaluated));
    expect(applyMutationJsonPatch(POD, evaluated.operations)).toEqual({
      ok: true,
      testFailed: false,
      object: {
        ...POD,
        metadata: { name: 'p', labels: { app: 't', 'example.com/owner': 'p' } },
        spec: {
          containers: [
            { name: 'app', image: 'app:1' },
            { name: 'side', image: 'side:1' },
          ],
        },
      },
    });
  });

  it('leave the object as it was when a test operation fails', () => {
    const result = applyMutationJsonPatch(POD, [
      { op: 'test', path: '/metadata/labels/app', value: 'other' },
      { op: 'add', path: '/metadata/labels/x', value: 'y' },
    ]);
    expect(result).toEqual({ ok: true, testFailed: true, object: POD });
  });

  it('fail with JSONPath: and json-patch’s error otherwise', () => {
    expect(applyMutationJsonPatch(POD, [{ op: 'remove', path: '/metadata/annotations/x' }])).toEqual({
      ok: false,
      panicked: false,
      error: 'JSONPath: remove operation does not apply: doc is missing path: "/metadata/annotations/x": missing value',
    });
    expect(applyMutationJsonPatch(POD, [{ op: '', path: '/x' }])).toEqual({ ok: false, panicked: false, error: 'JSONPath: Unexpected kind: ' });
  });
});
