// The battery and a webhook's selectors: requests sent from a namespace (and with labels) the selectors
// match, the other side of each shown by an admission where the webhook is skipped, and the coverage
// threshold a webhook with a namespaceSelector can reach.
import path from 'node:path';
import { cli } from './captured';

const root = path.join(__dirname, '../..');
const manifest = path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml');
const app = path.join(root, 'examples/pod-defaults/src/app.ts');

interface CheckJson {
  failed: number;
  skipped: { webhook: string; reason: string }[];
  coverage: { thresholdMet: boolean; webhooks: { name: string; percent: number; uncovered: string[]; cells: { key: string; covered: boolean }[] }[] };
}

it('passes --coverage-threshold 80 for the example’s webhook with a namespaceSelector: both of its sides are covered', async () => {
  const result = await cli('check', '--manifests', manifest, '--module', app, '--seed', '5', '--json', '--coverage-threshold', '80');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const report = JSON.parse(result.stdout) as CheckJson;
  expect(report.failed).toBe(0);
  expect(report.skipped).toEqual([]);
  expect(report.coverage.thresholdMet).toBe(true);
  const defaults = report.coverage.webhooks.find((w) => w.name === 'pod-defaults.example.com')!;
  expect(defaults.cells.filter((c) => c.key.startsWith('namespaceSelector')).map((c) => [c.key, c.covered])).toEqual([
    ['namespaceSelector: matched', true],
    ['namespaceSelector: not matched', true],
  ]);
  expect(defaults.uncovered).toEqual([]);
}, 300_000);
