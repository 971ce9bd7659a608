import path from 'node:path';
import { createHarness, manualClock, objects, review, type Harness } from 'admission-harness';
import 'admission-harness/jest';
import { app } from '../src/app';

const PINNED = `registry.example.com/shop/api@sha256:${'a'.repeat(64)}`;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    namespaces: [{ name: 'shop' }],
    // The AdmissionConfiguration kube-apiserver is given; the kubeconfig it names is re-pointed at `app`.
    imagePolicy: { admissionConfig: path.join(__dirname, '../deploy/admission.yaml'), target: app, clock: manualClock() },
    seed: 7,
  });
});
afterAll(() => h.close());

const pod = (name: string, images: string[], annotations?: Record<string, string>) =>
  objects.pod({ name, namespace: 'shop', images, ...(annotations ? { annotations } : {}) }, { seed: 7 });

it('allows images pinned by digest from an allowed registry', async () => {
  expect(await h.imageReview(pod('api', [PINNED]))).toBeImageAllowed();
});

it('refuses an image without a digest, with the text kube-apiserver answers', async () => {
  expect(await h.imageReview(pod('web', ['registry.example.com/shop/web:1.2.0']))).toBeImageDenied(
    'pods "web" is forbidden: image policy webhook backend denied one or more images: registry.example.com/shop/web:1.2.0: not pinned by digest (@sha256:…)',
  );
});

it('refuses Docker Hub, and denies the pod in the validation phase of the chain', async () => {
  const outcome = await h.admit(review.create(pod('cache', ['redis:7'])));
  expect(outcome).toBeDenied({ code: 403, message: /registry docker\.io is not allowed/ });
});

it('reviews init containers too', async () => {
  const mixed = pod('job', [PINNED]);
  mixed.spec!.initContainers = [{ name: 'setup', image: 'busybox:1.36' }];
  expect(await h.imageReview(mixed)).toBeImageDenied(/busybox:1\.36: registry docker\.io is not allowed/);
});

it('lets a break-glass pod through, with an audit annotation', async () => {
  const outcome = await h.imageReview(pod('hotfix', ['redis:7'], { 'alpha.image-policy.k8s.io/break-glass': 'true' }));
  expect(outcome).toBeImageAllowed();
  expect(outcome.auditAnnotations).toEqual({ 'imagepolicywebhook.image-policy.k8s.io/break-glass': 'true' });
});
