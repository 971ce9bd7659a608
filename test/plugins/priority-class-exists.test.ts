// Priority (plugin/pkg/admission/priority/admission.go): Admit resolves a pod's PriorityClass from the
// cluster's classes (and refuses one that does not exist); Validate keeps a single globalDefault class.
import { deepFreeze } from '../../lib/kube/json';
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { priorityClassValidate, priorityWithClasses } from '../../lib/plugins/priority-class-exists';
import { isRefusingPlugin } from '../../lib/plugins/refusing-plugin';
import { attributesFor, fakeCluster, mutationRequest } from './fake-cluster';

const priorityClass = (name: string, value: number, extra: JsonRecord = {}): KubeObject => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  preemptionPolicy: 'PreemptLowerPriority',
  ...extra,
});

function pod(spec: JsonRecord = {}): JsonRecord {
  const object = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'ns' },
    spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
  };
  deepFreeze(object);
  return object;
}

const create = (object: JsonRecord, ...classes: KubeObject[]) =>
  priorityWithClasses.decide(mutationRequest(attributesFor('CREATE', 'pods', object), fakeCluster(...classes)));
const specOf = (decision: { object?: JsonRecord }) => decision.object?.spec as JsonRecord | undefined;

describe('Priority (mutation)', () => {
  it('gives a pod the value and preemption policy of the class it names, read from the cluster', () => {
    const cluster = fakeCluster(priorityClass('gold', 1000, { preemptionPolicy: 'Never' }));
    const decision = priorityWithClasses.decide(mutationRequest(attributesFor('CREATE', 'pods', pod({ priorityClassName: 'gold' })), cluster));
    expect(specOf(decision)).toMatchObject({ priorityClassName: 'gold', priority: 1000, preemptionPolicy: 'Never' });
    expect(cluster.calls).toEqual(['scheduling.k8s.io/v1 PriorityClass ']);
  });

  it('refuses a pod naming a class that does not exist', () => {
    expect(create(pod({ priorityClassName: 'gold' }), priorityClass('silver', 10))).toEqual({
      refusal: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'pods "web" is forbidden: no PriorityClass with name gold was found',
        reason: 'Forbidden',
        details: { name: 'web', kind: 'pods' },
        code: 403,
      },
    });
    expect(priorityWithClasses.admit(mutationRequest(attributesFor('CREATE', 'pods', pod({ priorityClassName: 'gold' })), fakeCluster()))).toBeUndefined();
    expect(isRefusingPlugin(priorityWithClasses)).toBe(true);
    expect(priorityWithClasses.name).toBe('Priority');
  });

  it('resolves the system classes every cluster has, even when the store does not hold them', () => {
    expect(specOf(create(pod({ priorityClassName: 'system-node-critical' })))).toMatchObject({
      priority: 2000001000,
      preemptionPolicy: 'PreemptLowerPriority',
    });
    expect(specOf(create(pod({ priorityClassName: 'system-cluster-critical' })))).toMatchObject({ priority: 2000000000 });
  });

  it('names and applies the globalDefault class (the lowest value of several) for a pod naming none', () => {
    const classes = [
      priorityClass('high', 1000, { globalDefault: true }),
      priorityClass('low', 100, { globalDefault: true, preemptionPolicy: 'Never' }),
      priorityClass('other', 5),
    ];
    expect(specOf(create(pod(), ...classes))).toMatchObject({ priorityClassName: 'low', priority: 100, preemptionPolicy: 'Never' });
  });

  it('gives priority 0 and PreemptLowerPriority, and no class name, when no class is the default', () => {
    const spec = specOf(create(pod(), priorityClass('other', 5)));
    expect(spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(spec).not.toHaveProperty('priorityClassName');
  });

  it('refuses a client-set priority or preemptionPolicy other than the computed one, and accepts the same', () => {
    const gold = priorityClass('gold', 1000);
    expect(create(pod({ priorityClassName: 'gold', priority: 5 }), gold).refusal?.message).toBe(
      'pods "web" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    );
    expect(create(pod({ priority: 7 })).refusal?.message).toBe(
      'pods "web" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
    expect(create(pod({ priorityClassName: 'gold', preemptionPolicy: 'Never' }), gold).refusal?.message).toBe(
      'pods "web" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
    );
    expect(create(pod({ priorityClassName: 'gold', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' }), gold)).toEqual({});
  });

  it('carries over on update a priority or preemptionPolicy the new object dropped', () => {
    const old = pod({ priority: 1000, preemptionPolicy: 'Never' }) as KubeObject;
    const decision = priorityWithClasses.decide(mutationRequest(attributesFor('UPDATE', 'pods', pod(), { oldObject: old }), fakeCluster()));
    expect(specOf(decision)).toMatchObject({ priority: 1000, preemptionPolicy: 'Never' });
    expect(priorityWithClasses.decide(mutationRequest(attributesFor('UPDATE', 'pods', old as JsonRecord, { oldObject: old }), fakeCluster()))).toEqual({});
  });

  it('ignores subresources and other resources', () => {
    expect(
      priorityWithClasses.decide(
        mutationRequest(attributesFor('CREATE', 'pods', pod({ priorityClassName: 'gold' }), { subResource: 'binding' }), fakeCluster()),
      ),
    ).toEqual({});
    expect(
      priorityWithClasses.decide(
        mutationRequest(attributesFor('CREATE', 'configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }), fakeCluster()),
      ),
    ).toEqual({});
  });
});

describe('priorityClassValidate', () => {
  const incoming = (name: string, globalDefault: boolean) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value: 10,
    globalDefault,
  });
  const existing = [priorityClass('current', 100, { globalDefault: true }), priorityClass('other', 1)];

  it('refuses a second globalDefault class, created or marked by update', () => {
    const message = 'priorityclasses.scheduling.k8s.io "next" is forbidden: PriorityClass current is already marked as default. Only one default can exist';
    expect(priorityClassValidate(attributesFor('CREATE', 'priorityclasses', incoming('next', true)), fakeCluster(...existing))).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message,
      details: { name: 'next', group: 'scheduling.k8s.io', kind: 'priorityclasses' },
    });
    expect(priorityClassValidate(attributesFor('UPDATE', 'priorityclasses', incoming('next', true)), fakeCluster(...existing))?.message).toBe(message);
  });

  it('lets the default class itself be updated, classes that are not default through, and a first default in', () => {
    expect(priorityClassValidate(attributesFor('UPDATE', 'priorityclasses', incoming('current', true)), fakeCluster(...existing))).toBeUndefined();
    expect(priorityClassValidate(attributesFor('CREATE', 'priorityclasses', incoming('next', false)), fakeCluster(...existing))).toBeUndefined();
    expect(priorityClassValidate(attributesFor('CREATE', 'priorityclasses', incoming('next', true)), fakeCluster(priorityClass('other', 1)))).toBeUndefined();
  });
});
