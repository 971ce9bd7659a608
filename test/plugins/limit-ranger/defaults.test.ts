// LimitRanger's mutation (plugin/pkg/admission/limitranger/admission.go: PodMutateLimitFunc and
// mergePodResourceRequirements): defaults from `Container` items, and the kubernetes.io/limit-ranger note.
import { LIMIT_RANGER_ANNOTATION, limitRangerDefaults } from '../../../lib/plugins/limit-ranger';
import type { JsonRecord } from '../../../lib/kube/record';

function limitRange(...limits: JsonRecord[]): JsonRecord {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'ns' }, spec: { limits } };
}

function pod(containers: JsonRecord[], initContainers?: JsonRecord[], annotations?: Record<string, string>): JsonRecord {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', ...(annotations ? { annotations } : {}) },
    spec: { containers, ...(initContainers ? { initContainers } : {}) },
  };
}

const container = (name: string, resources?: JsonRecord): JsonRecord => ({ name, image: 'img', ...(resources ? { resources } : {}) });

const CONTAINER_DEFAULTS = { type: 'Container', defaultRequest: { cpu: '100m', memory: '128Mi' }, default: { cpu: '500m', memory: '256Mi' } };

describe('limitRangerDefaults', () => {
  it('gives a container without resources the default requests and limits, and notes it', () => {
    const result = limitRangerDefaults(pod([container('app')]), [limitRange(CONTAINER_DEFAULTS)]);
    expect(result?.spec).toEqual({
      containers: [{ name: 'app', image: 'img', resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } } }],
    });
    expect(result?.metadata).toEqual({
      name: 'p',
      namespace: 'ns',
      annotations: { [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app' },
    });
  });

  it('keeps what the container states and names only what it set', () => {
    const app = container('app', { requests: { memory: '64Mi' }, limits: { cpu: '1' } });
    const result = limitRangerDefaults(pod([app]), [limitRange(CONTAINER_DEFAULTS)]);
    expect(result?.spec).toEqual({
      containers: [{ name: 'app', image: 'img', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '256Mi' } } }],
    });
    expect((result?.metadata as JsonRecord).annotations).toEqual({
      [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu request for container app; memory limit for container app',
    });
  });

  it('defaults init containers too, after the app containers, as "init container"', () => {
    const result = limitRangerDefaults(pod([container('app')], [container('setup')]), [limitRange({ type: 'Container', defaultRequest: { cpu: '100m' } })]);
    expect(((result?.spec as JsonRecord).initContainers as JsonRecord[])[0]).toEqual({ name: 'setup', image: 'img', resources: { requests: { cpu: '100m' } } });
    expect((result?.metadata as JsonRecord).annotations).toEqual({
      [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu request for container app; cpu request for init container setup',
    });
  });

  it('leaves the pod alone when there is nothing to set', () => {
    const complete = container('app', { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } });
    expect(limitRangerDefaults(pod([complete]), [limitRange(CONTAINER_DEFAULTS)])).toBeUndefined();
    // Pod and PersistentVolumeClaim items, and min/max of Container items, default nothing.
    const noDefaults = limitRange(
      { type: 'Pod', max: { cpu: '2' } },
      { type: 'Container', min: { cpu: '10m' } },
      { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
    );
    expect(limitRangerDefaults(pod([container('app')]), [noDefaults])).toBeUndefined();
    expect(limitRangerDefaults(pod([container('app')]), [])).toBeUndefined();
  });

  it('takes the later of two Container items of one LimitRange', () => {
    const range = limitRange({ type: 'Container', default: { cpu: '1' } }, { type: 'Container', default: { cpu: '2' } });
    const result = limitRangerDefaults(pod([container('app')]), [range]);
    expect(((result?.spec as JsonRecord).containers as JsonRecord[])[0]?.resources).toEqual({ limits: { cpu: '2' } });
  });

  it('applies LimitRanges in order: the first sets a value, the last one that sets anything writes the note', () => {
    const first = limitRange({ type: 'Container', default: { cpu: '1' } });
    const second = limitRange({ type: 'Container', default: { cpu: '2', memory: '1Gi' } });
    const result = limitRangerDefaults(pod([container('app')]), [first, second]);
    expect(((result?.spec as JsonRecord).containers as JsonRecord[])[0]?.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' } });
    expect((result?.metadata as JsonRecord).annotations).toEqual({ [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: memory limit for container app' });
  });

  it('writes the defaults as their Quantities print, and keeps other annotations', () => {
    const result = limitRangerDefaults(pod([container('app')], undefined, { team: 'a' }), [
      limitRange({ type: 'Container', defaultRequest: { cpu: '0.5', memory: '1024Mi' } }),
    ]);
    expect(((result?.spec as JsonRecord).containers as JsonRecord[])[0]?.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' } });
    expect((result?.metadata as JsonRecord).annotations).toEqual({
      [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu, memory request for container app',
      team: 'a',
    });
  });

  it('applies to containers added since (a reinvocation round) and leaves the input unchanged', () => {
    const input = pod([container('app', { requests: { cpu: '100m' } }), container('sidecar')]);
    const before = JSON.stringify(input);
    const result = limitRangerDefaults(input, [limitRange({ type: 'Container', defaultRequest: { cpu: '100m' } })]);
    expect(JSON.stringify(input)).toBe(before);
    expect((result?.metadata as JsonRecord).annotations).toEqual({ [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu request for container sidecar' });
  });
});
