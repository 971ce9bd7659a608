import path from 'node:path';
import { createHarness, objects, review, stub, type Harness } from 'admission-harness';
import { app } from '../src/app';

// What the API does with the sidecar this webhook injects: decoded, defaulted, validated.
let h: Harness;
beforeAll(async () => {
  const peers = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'zz-team-label' },
    webhooks: [
      {
        name: 'team-label.example.com',
        clientConfig: { url: 'https://labels.example.com/' },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  };
  h = await createHarness({
    target: app,
    manifests: [path.join(__dirname, '../deploy/webhooks.yaml'), peers],
    // A later webhook's change: kube-apiserver reinvokes pod-defaults (reinvocationPolicy: IfNeeded).
    stubs: { 'team-label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels/team', value: 'shop' }]) },
    namespaces: [{ name: 'shop' }],
    seed: 7,
  });
});
afterAll(() => h.close());

it('injects a sidecar the API accepts, alone and after a reinvocation', async () => {
  const outcome = await h.call('pod-defaults.example.com', review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop' })));
  expect(outcome).toProduceValidObject();
  expect(outcome.patched).toMatchObject({ ok: true, changed: true });

  const result = await h.admit(review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop' })));
  expect(result).toBeAllowed();
  // The sidecar as it is stored: defaulted by the API, with the ServiceAccount plugin's token mount.
  expect(result.object).toMatchObject({
    spec: {
      containers: expect.arrayContaining([expect.objectContaining({ name: 'log-shipper', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' })]),
    },
  });
});
