// LimitRanger's validation (plugin/pkg/admission/limitranger/admission.go: PodValidateLimitFunc,
// PersistentVolumeClaimValidateLimitFunc and their constraint messages), wrapped as kube-apiserver
// wraps it: admission.NewForbidden → 403 `<resource> "<name>" is forbidden: <aggregate>`.
import { limitRangerDefaults, limitRangerHandles, limitRangerValidate } from '../../../lib/plugins/limit-ranger';
import { forbidden } from '../../../lib/kube/status';
import type { JsonRecord } from '../../../lib/kube/record';

function limitRange(...limits: JsonRecord[]): JsonRecord {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'ns' }, spec: { limits } };
}

function pod(containers: JsonRecord[], extra: JsonRecord = {}): JsonRecord {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers, ...extra } };
}

const container = (name: string, requests?: JsonRecord, limits?: JsonRecord, extra: JsonRecord = {}): JsonRecord => ({
  name,
  image: 'img',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
  ...extra,
});

const validatePod = (object: JsonRecord, ...limits: JsonRecord[]) => limitRangerValidate(object, 'pods', [limitRange(...limits)]);

describe('limitRangerValidate: Container items', () => {
  it.each([
    [{ min: { cpu: '100m' } }, container('app', { cpu: '50m' }), 'minimum cpu usage per Container is 100m, but request is 50m'],
    [{ min: { cpu: '100m' } }, container('app'), 'minimum cpu usage per Container is 100m.  No request is specified'],
    [{ min: { cpu: '100m' } }, container('app', { cpu: '100m' }, { cpu: '0.05' }), 'minimum cpu usage per Container is 100m, but limit is 50m'],
    [{ max: { memory: '1Gi' } }, container('app', { memory: '1Gi' }), 'maximum memory usage per Container is 1Gi.  No limit is specified'],
    [{ max: { memory: '1Gi' } }, container('app', undefined, { memory: '2Gi' }), 'maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    [{ max: { memory: '1Gi' } }, container('app', { memory: '1536Mi' }, { memory: '1Gi' }), 'maximum memory usage per Container is 1Gi, but request is 1536Mi'],
    [
      { maxLimitRequestRatio: { cpu: '2' } },
      container('app', { cpu: '250m' }, { cpu: '1' }),
      'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    ],
    [
      { maxLimitRequestRatio: { cpu: '2' } },
      container('app', undefined, { cpu: '1' }),
      'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
    ],
    [
      { maxLimitRequestRatio: { cpu: '2' } },
      container('app', { cpu: '0' }, { cpu: '1' }),
      'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
    ],
    [
      { maxLimitRequestRatio: { cpu: '2' } },
      container('app', { cpu: '1' }),
      'cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0',
    ],
  ])('%j, %j → %s', (item, app, message) => {
    expect(validatePod(pod([app]), { type: 'Container', ...item })).toBe(message);
  });

  it('passes a container within every bound', () => {
    const item = { type: 'Container', min: { cpu: '100m' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '4' } };
    expect(validatePod(pod([container('app', { cpu: '500m' }, { cpu: '2' })]), item)).toBeUndefined();
  });

  it('joins several failures as a Go aggregate, which the 403 carries', () => {
    const item = { type: 'Container', min: { cpu: '100m' }, max: { memory: '1Gi' } };
    const message = validatePod(pod([container('app', { cpu: '50m' }, { memory: '2Gi' }), container('other', { cpu: '50m' }, { memory: '512Mi' })]), item);
    // The same text from two containers appears once (utilerrors' aggregate de-duplicates).
    expect(message).toBe('[minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage per Container is 1Gi, but limit is 2Gi]');
    expect(forbidden({ group: '', resource: 'pods' }, 'p', message ?? '')).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
      reason: 'Forbidden',
      details: { name: 'p', kind: 'pods' },
      code: 403,
    });
  });

  it('checks init containers after app containers', () => {
    const item = { type: 'Container', max: { cpu: '1' } };
    const message = validatePod(pod([container('app', undefined, { cpu: '2' })], { initContainers: [container('setup', undefined, { cpu: '3' })] }), item);
    expect(message).toBe('[maximum cpu usage per Container is 1, but limit is 2, maximum cpu usage per Container is 1, but limit is 3]');
  });

  it('compares in whole milli-units rounded up, as requestLimitEnforcedValues does', () => {
    // 100.5m rounds up to 101m, so it meets a 101m minimum although it is below it.
    expect(validatePod(pod([container('app', { cpu: '100500u' })]), { type: 'Container', min: { cpu: '101m' } })).toBeUndefined();
    expect(validatePod(pod([container('app', { cpu: '100m' })]), { type: 'Container', min: { cpu: '101m' } })).toBe(
      'minimum cpu usage per Container is 101m, but request is 100m',
    );
  });

  it('prints the ratio with %f, rounding half to even', () => {
    // 129/128 = 1.0078125 exactly: Go's %f gives 1.007812 (JavaScript's toFixed would give 1.007813).
    const message = validatePod(pod([container('app', { cpu: '128m' }, { cpu: '129m' })]), { type: 'Container', maxLimitRequestRatio: { cpu: '1' } });
    expect(message).toBe('cpu max limit to request ratio per Container is 1, but provided ratio is 1.007812');
  });

  it('validates the defaults LimitRanger set in the mutation phase', () => {
    const range = limitRange({ type: 'Container', default: { cpu: '2' }, max: { cpu: '1' } });
    const defaulted = limitRangerDefaults(pod([container('app')]), [range]);
    expect(limitRangerValidate(defaulted ?? {}, 'pods', [range])).toBe('maximum cpu usage per Container is 1, but limit is 2');
  });
});

describe('limitRangerValidate: Pod items', () => {
  it('holds the sum of the containers to the bounds', () => {
    const message = validatePod(pod([container('a', undefined, { memory: '600Mi' }), container('b', undefined, { memory: '600Mi' })]), {
      type: 'Pod',
      max: { memory: '1Gi' },
    });
    expect(message).toBe('maximum memory usage per Pod is 1Gi, but limit is 1200Mi');
  });

  it('adds what the containers state; with none stating a limit the pod has none', () => {
    // A container without the limit adds nothing: the sum is the other container's.
    expect(validatePod(pod([container('a', undefined, { cpu: '500m' }), container('b')]), { type: 'Pod', max: { cpu: '1' } })).toBeUndefined();
    expect(validatePod(pod([container('a'), container('b')]), { type: 'Pod', max: { cpu: '1' } })).toBe(
      'maximum cpu usage per Pod is 1.  No limit is specified',
    );
  });

  it('counts sidecars with the app containers and a plain init container on its own', () => {
    const sidecar = container('sidecar', { cpu: '200m' }, undefined, { restartPolicy: 'Always' });
    const setup = container('setup', { cpu: '700m' });
    // Running: app 300m + sidecar 200m = 500m; the setup container ran next to the sidecar: 900m.
    const message = validatePod(pod([container('app', { cpu: '300m' })], { initContainers: [sidecar, setup] }), {
      type: 'Pod',
      max: { cpu: '800m' },
      min: { cpu: '1' },
    });
    expect(message).toBe('[minimum cpu usage per Pod is 1, but request is 900m, maximum cpu usage per Pod is 800m.  No limit is specified]');
  });

  it('takes pod-level resources over the containers’ sum', () => {
    const withPodLevel = pod([container('app', { cpu: '100m' }, { cpu: '100m' })], { resources: { requests: { cpu: '2' }, limits: { cpu: '2' } } });
    expect(validatePod(withPodLevel, { type: 'Pod', max: { cpu: '1' } })).toBe('maximum cpu usage per Pod is 1, but limit is 2');
  });
});

describe('limitRangerValidate: claims and order', () => {
  const claim = (storage?: string): JsonRecord => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'ns' },
    spec: { accessModes: ['ReadWriteOnce'], resources: storage ? { requests: { storage } } : {} },
  });
  const item = { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } };

  it.each([
    ['500Mi', 'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi'],
    ['20Gi', 'maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi'],
    ['5Gi', undefined],
  ])('a claim of %s → %s', (storage, message) => {
    expect(limitRangerValidate(claim(storage), 'persistentvolumeclaims', [limitRange(item)])).toBe(message);
  });

  it('needs a claim to request storage', () => {
    expect(limitRangerValidate(claim(), 'persistentvolumeclaims', [limitRange(item)])).toBe(
      '[minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified, maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified]',
    );
  });

  it('judges pods by Container and Pod items only, claims by PersistentVolumeClaim items only', () => {
    expect(limitRangerValidate(claim('500Mi'), 'persistentvolumeclaims', [limitRange({ type: 'Container', min: { storage: '1Gi' } })])).toBeUndefined();
    expect(validatePod(pod([container('app')]), item)).toBeUndefined();
    expect(limitRangerValidate({ kind: 'Deployment' }, 'deployments', [limitRange({ type: 'Container', min: { cpu: '1' } })])).toBeUndefined();
  });

  it('answers the first LimitRange that fails', () => {
    const first = limitRange({ type: 'Container', min: { cpu: '100m' } });
    const second = limitRange({ type: 'Container', max: { memory: '1Gi' } });
    const app = container('app', { cpu: '50m' }, { memory: '2Gi' });
    expect(limitRangerValidate(pod([app]), 'pods', [first, second])).toBe('minimum cpu usage per Container is 100m, but request is 50m');
    expect(limitRangerValidate(pod([app]), 'pods', [second, first])).toBe('maximum memory usage per Container is 1Gi, but limit is 2Gi');
  });
});

describe('limitRangerHandles', () => {
  const POD = { group: '', kind: 'Pod' };
  const PVC = { group: '', kind: 'PersistentVolumeClaim' };
  it.each([
    [{ operation: 'CREATE', kind: POD }, true],
    [{ operation: 'UPDATE', kind: POD }, false],
    [{ operation: 'UPDATE', kind: POD, subResource: 'resize' }, true],
    [{ operation: 'UPDATE', kind: POD, subResource: 'status' }, false],
    [{ operation: 'CREATE', kind: PVC }, true],
    [{ operation: 'UPDATE', kind: PVC }, true],
    [{ operation: 'DELETE', kind: PVC }, false],
    [{ operation: 'CREATE', kind: { group: 'apps', kind: 'Deployment' } }, false],
    [{ operation: 'UPDATE', kind: PVC, oldObject: { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } } }, false],
  ] as const)('%j → %s', (attributes, expected) => {
    expect(limitRangerHandles(attributes)).toBe(expected);
  });
});
