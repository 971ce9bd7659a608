import type { Pod } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../kube/admission';
import { SeededRandom } from './random';

// Objects made outside a harness draw from one sequence per module registry (one per Jest test file),
// so a file's objects are the same on every run.
const defaultRandom = new SeededRandom(Number(process.env.ADMISSION_HARNESS_SEED ?? 1));

export interface PodOptions {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Images of the containers, one container each; a realistic image by default. */
  images?: string[];
  random?: SeededRandom;
}

const APPS = ['web', 'api', 'worker', 'frontend', 'checkout', 'billing', 'search'];
const IMAGES = ['nginx:1.27', 'redis:7.4', 'ghcr.io/acme/api:v2.3.1', 'registry.k8s.io/pause:3.10', 'postgres:16.4', 'quay.io/prometheus/node-exporter:v1.8.2'];

/**
 * A Pod as a webhook sees it on CREATE: with the defaults kube-apiserver fills in before admission
 * (imagePullPolicy, terminationMessagePath, dnsPolicy, tolerations, …), as in a real capture.
 */
function pod(options: PodOptions = {}): Pod & KubeObject {
  const random = options.random ?? defaultRandom;
  const app = random.pick(APPS);
  const name = options.name ?? `${app}-${random.suffix(5)}`;
  const images = options.images ?? [random.pick(IMAGES)];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: options.namespace ?? 'default',
      labels: options.labels ?? { app },
      ...(options.annotations ? { annotations: options.annotations } : {}),
    },
    spec: {
      containers: images.map((image, index) => ({
        name: index === 0 ? app : `${app}-${index}`,
        image,
        resources: {},
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: image.endsWith(':latest') || !image.includes(':') ? 'Always' : 'IfNotPresent',
      })),
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: {},
  };
}

/** Realistic objects for reviews. */
export const objects = { pod };
