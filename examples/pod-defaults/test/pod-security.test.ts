import path from 'node:path';
import { createHarness, review, type Harness } from 'admission-harness';
import { app } from '../src/app';

// The sidecar goes into every namespace, those enforcing the `restricted` Pod Security Standard too.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    target: app,
    manifests: [path.join(__dirname, '../deploy/webhooks.yaml')],
    namespaces: [{ name: 'locked', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } }],
    seed: 7,
  });
});
afterAll(() => h.close());

// A pod that is restricted before the webhook sees it.
const restricted = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'api', namespace: 'locked' },
  spec: {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [
      { name: 'api', image: 'registry.example.com/api:2.4.1', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } },
    ],
  },
};

it('keeps a restricted pod restricted: the sidecar breaks no Pod Security check', async () => {
  const outcome = await h.call('pod-defaults.example.com', review.create(restricted));
  expect(outcome).toPassPodSecurity('restricted');
});

it('is admitted in a namespace enforcing restricted', async () => {
  const result = await h.admit(review.create(restricted));
  expect(result).toBeAllowed();
  expect(result.auditAnnotations['pod-security.kubernetes.io/enforce-policy']).toBe('restricted:latest');
});
