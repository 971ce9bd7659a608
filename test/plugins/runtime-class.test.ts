// RuntimeClass (plugin/pkg/admission/runtimeclass/admission.go: Admit = setOverhead + setScheduling,
// Validate = validateOverhead; pkg/util/tolerations MergeTolerations), on a small fake cluster.
import { deepFreeze } from '../../lib/kube/json';
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { isRefusingPlugin } from '../../lib/plugins/refusing-plugin';
import { runtimeClass, runtimeClassValidate } from '../../lib/plugins/runtime-class';
import { mergeTolerations } from '../../lib/plugins/tolerations';
import { attributesFor, fakeCluster, mutationRequest } from './fake-cluster';

const rc = (name: string, extra: JsonRecord = {}): KubeObject => ({
  apiVersion: 'node.k8s.io/v1',
  kind: 'RuntimeClass',
  metadata: { name },
  handler: name,
  ...extra,
});

function pod(spec: JsonRecord = {}, metadata: JsonRecord = { name: 'web', namespace: 'ns' }): JsonRecord {
  const object = { apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } };
  deepFreeze(object);
  return object;
}

const decide = (object: JsonRecord, ...classes: KubeObject[]) =>
  runtimeClass.decide(mutationRequest(attributesFor('CREATE', 'pods', object), fakeCluster(...classes)));
const validate = (object: JsonRecord, ...classes: KubeObject[]) => runtimeClassValidate(attributesFor('CREATE', 'pods', object), fakeCluster(...classes));
const forbidden = (message: string, name = 'web') => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  code: 403,
  reason: 'Forbidden',
  message,
  details: { name, kind: 'pods' },
});

const kata = rc('kata', { overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } });

describe('RuntimeClass (mutation)', () => {
  it('leaves a pod that names no RuntimeClass alone, without reading the cluster', () => {
    const cluster = fakeCluster(kata);
    expect(runtimeClass.decide(mutationRequest(attributesFor('CREATE', 'pods', pod()), cluster))).toEqual({});
    expect(cluster.calls).toEqual([]);
  });

  it('refuses a pod naming a RuntimeClass the cluster does not hold', () => {
    expect(decide(pod({ runtimeClassName: 'gvisor' }), kata)).toEqual({
      refusal: forbidden('pods "web" is forbidden: pod rejected: RuntimeClass "gvisor" not found'),
    });
    // admission.NewForbidden names a pod not named yet by its generateName.
    expect(decide(pod({ runtimeClassName: 'gvisor' }, { generateName: 'web-', namespace: 'ns' })).refusal?.message).toBe(
      'pods "web-" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
    );
  });

  it('as a MutationPlugin, answers no object when it refuses, and says it can refuse', () => {
    expect(runtimeClass.admit(mutationRequest(attributesFor('CREATE', 'pods', pod({ runtimeClassName: 'gvisor' })), fakeCluster()))).toBeUndefined();
    expect(isRefusingPlugin(runtimeClass)).toBe(true);
    expect(runtimeClass.name).toBe('RuntimeClass');
  });

  it("sets spec.overhead to the class's overhead.podFixed", () => {
    expect(decide(pod({ runtimeClassName: 'kata' }), kata).object?.spec).toMatchObject({
      runtimeClassName: 'kata',
      overhead: { cpu: '250m', memory: '120Mi' },
    });
  });

  it('accepts an overhead equal by value, and refuses a different one', () => {
    expect(decide(pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }), kata)).toEqual({
      object: expect.objectContaining({ spec: expect.objectContaining({ overhead: { cpu: '250m', memory: '120Mi' } }) }),
    });
    expect(decide(pod({ runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } }), kata)).toEqual({});
    expect(decide(pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } }), kata).refusal?.message).toBe(
      "pods \"web\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    );
  });

  it('changes nothing for a class with neither overhead nor scheduling', () => {
    expect(decide(pod({ runtimeClassName: 'runc' }), rc('runc'))).toEqual({});
  });

  it("merges the class's nodeSelector into the pod's, refusing a key with another value", () => {
    const sandboxed = rc('sandboxed', { scheduling: { nodeSelector: { sandbox: 'true', zone: 'a' } } });
    expect(decide(pod({ runtimeClassName: 'sandboxed' }), sandboxed).object?.spec).toMatchObject({ nodeSelector: { sandbox: 'true', zone: 'a' } });
    expect(decide(pod({ runtimeClassName: 'sandboxed', nodeSelector: { disk: 'ssd', zone: 'a' } }), sandboxed).object?.spec).toMatchObject({
      nodeSelector: { disk: 'ssd', zone: 'a', sandbox: 'true' },
    });
    expect(decide(pod({ runtimeClassName: 'sandboxed', nodeSelector: { zone: 'b' } }), sandboxed).refusal?.message).toBe(
      'pods "web" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[zone] = a; pod.spec.nodeSelector[zone] = b',
    );
  });

  it("merges the class's tolerations after the pod's, keeping only the wider of two", () => {
    const tainted = rc('tainted', {
      scheduling: {
        tolerations: [
          { key: 'sandbox', operator: 'Equal', value: 'true', effect: 'NoSchedule' },
          { key: 'gpu', operator: 'Exists' },
        ],
      },
    });
    const spec = decide(
      pod({
        runtimeClassName: 'tainted',
        tolerations: [
          { key: 'sandbox', operator: 'Exists' },
          { key: 'other', operator: 'Exists', effect: 'NoSchedule' },
        ],
      }),
      tainted,
    ).object?.spec as JsonRecord;
    expect(spec.tolerations).toEqual([
      { key: 'sandbox', operator: 'Exists' },
      { key: 'other', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'gpu', operator: 'Exists' },
    ]);
  });

  it('acts on pod creates only', () => {
    const cluster = fakeCluster();
    expect(runtimeClass.decide(mutationRequest(attributesFor('UPDATE', 'pods', pod({ runtimeClassName: 'gvisor' })), cluster))).toEqual({});
    expect(
      runtimeClass.decide(mutationRequest(attributesFor('CREATE', 'pods', pod({ runtimeClassName: 'gvisor' }), { subResource: 'binding' }), cluster)),
    ).toEqual({});
    expect(cluster.calls).toEqual([]);
  });
});

describe('mergeTolerations (pkg/util/tolerations)', () => {
  it.each([
    ['equal ones once', [{ key: 'a', operator: 'Exists' }], [{ key: 'a', operator: 'Exists' }], [{ key: 'a', operator: 'Exists' }]],
    ['an empty key with Exists covers every key', [{ key: 'a', operator: 'Equal', value: 'x' }], [{ operator: 'Exists' }], [{ operator: 'Exists' }]],
    [
      'an empty effect covers every effect',
      [{ key: 'a', operator: 'Exists', effect: 'NoExecute' }],
      [{ key: 'a', operator: 'Exists' }],
      [{ key: 'a', operator: 'Exists' }],
    ],
    [
      'a shorter NoExecute time is covered by a longer one',
      [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
      [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    ],
    [
      'different values both stay',
      [{ key: 'a', operator: 'Equal', value: 'x' }],
      [{ key: 'a', operator: 'Equal', value: 'y' }],
      [
        { key: 'a', operator: 'Equal', value: 'x' },
        { key: 'a', operator: 'Equal', value: 'y' },
      ],
    ],
    // An empty operator means Equal on the wider side only: the operator-less one covers an explicit Equal, not the reverse.
    [
      'an operator-less toleration wins over Equal (pod first)',
      [{ key: 'a', value: 'x' }],
      [{ key: 'a', operator: 'Equal', value: 'x' }],
      [{ key: 'a', value: 'x' }],
    ],
    [
      'an operator-less toleration wins over Equal (class first)',
      [{ key: 'a', operator: 'Equal', value: 'x' }],
      [{ key: 'a', value: 'x' }],
      [{ key: 'a', value: 'x' }],
    ],
  ])('%s', (_name, first, second, merged) => {
    expect(mergeTolerations(first, second)).toEqual(merged);
  });
});

describe('runtimeClassValidate', () => {
  it("passes a pod whose overhead is its class's, or that has none", () => {
    expect(validate(pod({ runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } }), kata)).toBeUndefined();
    expect(validate(pod({ runtimeClassName: 'runc' }), rc('runc'))).toBeUndefined();
    expect(validate(pod())).toBeUndefined();
  });

  it('refuses a RuntimeClass the cluster does not hold', () => {
    expect(validate(pod({ runtimeClassName: 'gvisor' }))).toEqual(forbidden('pods "web" is forbidden: pod rejected: RuntimeClass "gvisor" not found'));
  });

  it('refuses an overhead without a class defining one, or different from it', () => {
    const without = 'pods "web" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';
    expect(validate(pod({ overhead: { cpu: '1' } }))?.message).toBe(without);
    expect(validate(pod({ runtimeClassName: 'runc', overhead: { cpu: '1' } }), rc('runc'))?.message).toBe(without);
    expect(validate(pod({ runtimeClassName: 'kata', overhead: { cpu: '250m' } }), kata)?.message).toBe(
      "pods \"web\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    );
  });

  it('judges pod creates only', () => {
    expect(runtimeClassValidate(attributesFor('UPDATE', 'pods', pod({ runtimeClassName: 'gvisor' })), fakeCluster())).toBeUndefined();
  });
});
