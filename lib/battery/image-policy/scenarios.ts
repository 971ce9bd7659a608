import type { KubeObject } from '../../kube/admission';
import { DEFAULT_USER, type AdmissionAttributes } from '../../kube/attributes';
import { objects } from '../../review/objects';

/** One pod request the ImagePolicyWebhook plugin turns into an ImageReview. */
export interface ImagePolicyScenario {
  title: string;
  attributes: AdmissionAttributes;
}

// A digest that reads as one: 64 hex digits (the battery never pulls it).
const DIGEST = `sha256:${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}`;

function attributes(operation: 'CREATE' | 'UPDATE', pod: KubeObject, oldPod: KubeObject | null, subResource = ''): AdmissionAttributes {
  return {
    operation,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource,
    name: pod.metadata?.name ?? '',
    namespace: pod.metadata?.namespace ?? 'default',
    userInfo: DEFAULT_USER,
    object: pod,
    oldObject: oldPod,
    dryRun: false,
    options: null,
  };
}

type Container = { name: string; image: string };
const container = (name: string, image: string): Container => ({ name, image });

/** A pod of the seed, its containers replaced by `containers` (and the init containers by `init`). */
function podWith(seed: number, namespace: string, containers: Container[], init: Container[] = [], annotations?: Record<string, string>): KubeObject {
  const generated = objects.pod({ namespace, ...(annotations ? { annotations } : {}) }, { seed }) as unknown as KubeObject & { spec: Record<string, unknown> };
  const template = (generated.spec.containers as Record<string, unknown>[])[0] ?? {};
  const spec: Record<string, unknown> = { ...generated.spec, containers: containers.map((c) => ({ ...template, ...c })) };
  if (init.length > 0) spec.initContainers = init.map((c) => ({ ...template, ...c }));
  return { ...generated, spec };
}

/**
 * The requests the battery sends, each an ImageReview as kube-apiserver builds it
 * (plugin/pkg/admission/imagepolicy admission.go `Validate`): a plain pod, several containers and
 * init containers, the annotations that reach the backend and those that do not, an update, an
 * ephemeral container (its image alone is reviewed), images by digest, without a tag and without a
 * registry, and another namespace. Derived from the seed.
 */
export function imagePolicyScenarios(seed: number): ImagePolicyScenario[] {
  const plain = objects.pod({ namespace: 'default' }, { seed }) as KubeObject;
  const several = podWith(
    seed + 1,
    'default',
    [container('app', 'registry.example.com/team/app:1.4.2'), container('sidecar', `registry.example.com/team/proxy@${DIGEST}`)],
    [container('migrate', 'registry.example.com/team/migrate:1.4.2'), container('wait', 'busybox')],
  );
  const annotated = podWith(seed + 2, 'default', [container('app', 'nginx:1.27')], [], {
    'alpha.image-policy.k8s.io/break-glass': 'true',
    'mycompany.image-policy.k8s.io/ticket': 'OPS-1234',
    'kubernetes.io/description': 'not sent: outside *.image-policy.k8s.io/',
  });
  const before = podWith(seed + 3, 'default', [container('app', 'nginx:1.26')]);
  const after = {
    ...before,
    spec: { ...(before.spec as object), containers: [{ ...(before.spec as { containers: object[] }).containers[0], image: 'nginx:1.27' }] },
  };
  const running = podWith(seed + 4, 'default', [container('app', `registry.example.com/team/app@${DIGEST}`)]);
  const debugged = {
    ...running,
    spec: {
      ...(running.spec as object),
      ephemeralContainers: [{ name: 'debugger', image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
    },
  };
  const bare = podWith(seed + 5, 'default', [container('app', 'nginx')]);
  const elsewhere = podWith(seed + 6, 'kube-system', [container('app', 'registry.k8s.io/pause:3.10')]);
  return [
    { title: 'a pod (CREATE)', attributes: attributes('CREATE', plain, null) },
    { title: 'several containers and initContainers, a digest and an untagged image (CREATE)', attributes: attributes('CREATE', several, null) },
    { title: 'a pod with *.image-policy.k8s.io/ annotations (CREATE)', attributes: attributes('CREATE', annotated, null) },
    { title: 'a pod whose image changes (UPDATE)', attributes: attributes('UPDATE', after as KubeObject, before) },
    {
      title: 'an ephemeral container (UPDATE pods/ephemeralcontainers)',
      attributes: attributes('UPDATE', debugged as KubeObject, running, 'ephemeralcontainers'),
    },
    { title: 'an image without registry or tag (CREATE)', attributes: attributes('CREATE', bare, null) },
    { title: 'a pod in kube-system (CREATE)', attributes: attributes('CREATE', elsewhere, null) },
  ];
}
