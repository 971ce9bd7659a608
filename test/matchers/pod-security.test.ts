// toPassPodSecurity(level): the pod a webhook leaves, judged by the Pod Security Standards as the
// PodSecurity admission plugin judges it (lib/plugins/pod-security).
import { createHarness, objects, review, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';
import { answer, base64Patch, scriptedWebhook, type Answer } from '../webhooks/handlers';
import { failure } from './failure';

let script: (r: AdmissionReview) => Answer = (r) => answer(r);
const target = scriptedWebhook((r) => script(r));
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: target.handler, seed: 5, namespaces: [{ name: 'shop' }] });
});
afterAll(() => h.close());

// A pod that passes restricted: non-root, seccomp RuntimeDefault, no escalation, every capability dropped.
const RESTRICTED_CONTAINER = { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } };
const restrictedPod = (): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'app', image: 'nginx:1.27', ...RESTRICTED_CONTAINER }],
  },
});
const injecting = (sidecar: Record<string, unknown>) => (r: AdmissionReview) =>
  answer(r, {
    patch: base64Patch([{ op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'envoy:1.31', ...sidecar } }]),
    patchType: 'JSONPatch',
  });
const call = (reply: (r: AdmissionReview) => Answer, object = restrictedPod()) => {
  script = reply;
  return h.call({ type: 'mutating', name: 'injector.example.com', path: '/m' }, review.create(object));
};

describe('toPassPodSecurity', () => {
  it('passes a pod the webhook leaves restricted, and names what a careless sidecar breaks and where it would pass', async () => {
    expect(await call(injecting(RESTRICTED_CONTAINER))).toPassPodSecurity('restricted');
    const careless = await call(injecting({}));
    expect(careless).toPassPodSecurity('baseline');
    expect(careless).not.toPassPodSecurity('restricted');
    const message = failure(() => expect(careless).toPassPodSecurity('restricted'));
    expect(message).toContain('expected the pod to pass PodSecurity "restricted:latest", but it violates:');
    expect(message).toContain(
      '  - allowPrivilegeEscalation != false (container "sidecar" must set securityContext.allowPrivilegeEscalation=false) [allowPrivilegeEscalation, restricted]',
    );
    expect(message).toContain(
      '  - unrestricted capabilities (container "sidecar" must set securityContext.capabilities.drop=["ALL"]) [capabilities_restricted, restricted]',
    );
    expect(message).toContain('It passes at baseline.');
  });

  it('a privileged sidecar passes only privileged; pinned versions are judged by their own checks', async () => {
    const privileged = await call(injecting({ securityContext: { privileged: true } }));
    expect(privileged).not.toPassPodSecurity('baseline');
    expect(failure(() => expect(privileged).toPassPodSecurity('baseline', 'v1.24'))).toContain('It passes at privileged.');
  });

  it('reads h.admit results and workloads’ pod templates; refuses what it cannot judge', async () => {
    script = (r) => answer(r);
    const deployment = objects.deployment({ name: 'web', namespace: 'shop' }, { seed: 5 });
    const admitted = await h.admit(review.create(deployment));
    expect(admitted).toPassPodSecurity('privileged');
    expect(() => expect(admitted).toPassPodSecurity('strict' as never)).toThrow(
      'toPassPodSecurity expects a level of privileged, baseline, restricted, got "strict"',
    );
    const configMap = await h.admit(review.create(objects.configMap({ namespace: 'shop' }, { seed: 5 })));
    expect(failure(() => expect(configMap).toPassPodSecurity('restricted'))).toContain(
      'expected a pod or a workload with a pod template to judge, but there is none',
    );
  });
});
