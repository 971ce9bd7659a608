// The webhook as its own process under `admission-harness check --mock-api --command …` (as .ci/run runs it): the
// process gets the mock API's KUBECONFIG, syncs its informer, then serves; the battery's checks all pass.
import path from 'node:path';
import { check } from '../../../lib/cli/check';

const root = path.join(__dirname, '../../..');

it('check --mock-api starts the webhook with a kubeconfig its informer syncs from, and every check passes', async () => {
  let text = '';
  const code = await check(
    {
      manifests: [path.join(root, 'examples/ingress-hosts/deploy/webhooks.yaml')],
      command: `node ${path.join(root, 'node_modules/jiti/lib/jiti-cli.mjs')} ${path.join(root, 'examples/ingress-hosts/src/server.ts')}`,
      mockApi: true,
      json: true,
      failFast: false,
      seed: 27,
    },
    (t) => (text += t),
  );
  const report = JSON.parse(text) as { passed: number; failed: number };
  expect(report.failed).toBe(0);
  expect(report.passed).toBeGreaterThan(20);
  expect(code).toBe(0);
});
