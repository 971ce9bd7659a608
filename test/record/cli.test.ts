// `admission-harness record` as a user types it: usage errors, then a recording made through the command
// line by the harness playing kube-apiserver, and the recorded directory replayed against the example
// webhook with `replay` (--update records its answers, the next replay compares them and passes).
import path from 'node:path';
import { createHarness, objects, review } from '../../lib';
import { runCli } from '../../lib/cli/run';
import type { RecorderConfiguration } from '../../lib/record';
import { yaml } from '../../lib/yaml';
import { cli } from '../cli/captured';
import { fixtures, outDir } from './helpers';

const root = path.join(__dirname, '../..');
const manifest = path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml');
const app = path.join(root, 'examples/pod-defaults/src/app.ts');

describe('record: usage errors (exit 2, one line, no stack)', () => {
  it('needs --out', async () => {
    const result = await cli('record', '--max', '1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('admission-harness: record needs --out DIR');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('takes --cert and --key together', async () => {
    const result = await cli('record', '--out', 'x', '--cert', 'tls.crt');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('admission-harness: --cert and --key go together');
  });

  it('names a certificate file that cannot be read', async () => {
    const missing = path.join(root, 'no-such-dir/tls.crt');
    const result = await cli('record', '--out', 'x', '--cert', missing, '--key', missing);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`admission-harness: --cert ${missing}: ENOENT`);
  });

  it('has --help', async () => {
    const result = await cli('record', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--out DIR [--upstream URL [--upstream-ca FILE]]');
  });
});

describe('record from the command line, then replay', () => {
  it('records what the harness sends, stops after --max, and the directory replays against the example webhook', async () => {
    const out = outDir();
    try {
      const printed: string[] = [];
      let announced!: (configuration: RecorderConfiguration) => void;
      const configuration = new Promise<RecorderConfiguration>((resolve) => (announced = resolve));
      const recording = runCli(
        ['record', '--out', out.dir, '--max', '2'],
        (text) => {
          printed.push(text);
          if (text.startsWith('# recording at ')) announced(yaml().parse(text.slice(text.indexOf('\n') + 1)) as RecorderConfiguration);
        },
        (text) => printed.push(`stderr: ${text}`),
      );
      const h = await createHarness({ target: { url: (await configuration).webhooks![0]!.clientConfig.url! }, manifests: [await configuration], seed: 3 });
      try {
        expect(await h.call('recorder.admission-harness.io', review.create(objects.pod({ namespace: 'shop', name: 'web-1', images: ['nginx:1.27'] })))).toBeAllowed();
        expect(await h.call('recorder.admission-harness.io', review.create(objects.pod({ namespace: 'shop', name: 'web-2', images: ['nginx:latest'] })))).toBeAllowed();
      } finally {
        await h.close();
      }
      expect(await recording).toBe(0);
      expect(printed.slice(1)).toEqual([`recorded ${path.join(out.dir, 'pods-create-1.yaml')}`, `recorded ${path.join(out.dir, 'pods-create-2.yaml')}`, `stopped (max): 2 reviews recorded in ${out.dir}`]);
      expect(fixtures(out.dir).map((f) => f.document.source.from)).toEqual(['record', 'record']);

      // Nothing to compare yet: --update records the mutating webhook's answers into the fixtures (a
      // fixture holds one response, and both of the example's webhooks match a pod: --webhook names one).
      const updated = await cli('replay', out.dir, '--manifests', manifest, '--module', app, '--webhook', 'pod-defaults.example.com', '--update', '--seed', '3');
      expect(updated.stdout).toContain('2 fixtures: 0 passed, 0 failed, 0 new, 2 updated');
      expect(updated.stderr).toBe('');
      expect(updated.code).toBe(0);
      // Then a replay compares them, and passes.
      const replayed = await cli('replay', out.dir, '--manifests', manifest, '--module', app, '--webhook', 'pod-defaults.example.com', '--seed', '3', '--json');
      expect(replayed.code).toBe(0);
      const report = JSON.parse(replayed.stdout) as { passed: number; failed: number; fixtures: { verdict: string; compared: boolean; webhooks: { webhook: string; mismatches: unknown[] }[] }[] };
      expect(report).toMatchObject({ passed: 2, failed: 0 });
      for (const fixture of report.fixtures) {
        expect(fixture).toMatchObject({ verdict: 'passed', compared: true });
        expect(fixture.webhooks.map((w) => [w.webhook, w.mismatches])).toEqual([['pod-defaults/pod-defaults.example.com', []]]);
      }
    } finally {
      out.cleanup();
    }
  });
});
