// Which pod updates PodSecurity evaluates (admission.go isSignificantPodUpdate): only changes that can
// alter a check's outcome on a running pod.
import type { JsonRecord } from '../../../lib/kube/record';
import { isSignificantPodUpdate } from '../../../lib/plugins/pod-security';

const pod = (spec: JsonRecord, annotations: Record<string, string> = {}): JsonRecord => ({ metadata: { name: 'p', annotations }, spec });
const app = (image = 'app:1', extra: JsonRecord = {}): JsonRecord => ({ name: 'app', image, ...extra });

describe('isSignificantPodUpdate', () => {
  const before = pod({
    initContainers: [{ name: 'init', image: 'init:1' }],
    containers: [app()],
    ephemeralContainers: [{ name: 'debug', image: 'busybox:1' }],
  });

  it('ignores labels, annotations other than seccomp, resources (a resize) and status', () => {
    const after = {
      ...pod({ ...(before.spec as JsonRecord), containers: [app('app:1', { resources: { limits: { cpu: '2' } } })] }, { note: 'x' }),
      status: { phase: 'Running' },
    };
    expect(isSignificantPodUpdate(after, before)).toBe(false);
  });

  it('counts an image change in any kind of container', () => {
    expect(isSignificantPodUpdate(pod({ ...(before.spec as JsonRecord), containers: [app('app:2')] }), before)).toBe(true);
    expect(isSignificantPodUpdate(pod({ ...(before.spec as JsonRecord), initContainers: [{ name: 'init', image: 'init:2' }] }), before)).toBe(true);
    expect(isSignificantPodUpdate(pod({ ...(before.spec as JsonRecord), ephemeralContainers: [{ name: 'debug', image: 'busybox:2' }] }), before)).toBe(true);
  });

  it('counts containers added or removed, and an ephemeral container added', () => {
    expect(isSignificantPodUpdate(pod({ ...(before.spec as JsonRecord), containers: [app(), { name: 'side', image: 's' }] }), before)).toBe(true);
    expect(isSignificantPodUpdate(pod({ ...(before.spec as JsonRecord), initContainers: [] }), before)).toBe(true);
    expect(
      isSignificantPodUpdate(
        pod({
          ...(before.spec as JsonRecord),
          ephemeralContainers: [
            { name: 'debug', image: 'busybox:1' },
            { name: 'debug2', image: 'busybox:1' },
          ],
        }),
        before,
      ),
    ).toBe(true);
  });

  it('counts a container seccomp annotation change, not the pod one (dropped upstream)', () => {
    expect(isSignificantPodUpdate(pod(before.spec as JsonRecord, { 'container.seccomp.security.alpha.kubernetes.io/app': 'unconfined' }), before)).toBe(true);
    expect(isSignificantPodUpdate(pod(before.spec as JsonRecord, { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }), before)).toBe(false);
  });
});
