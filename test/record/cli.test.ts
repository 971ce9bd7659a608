// `admission-harness record` as a user types it: usage errors, then a recording made through the command
// line by the harness playing kube-apiserver, and the recorded directory replayed against the example
// webhook with `replay` (--update records its answers, the next replay compares them and passes).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CertificateAuthority, createHarness, objects, review } from '../../lib';
import { runCli } from '../../lib/cli/run';
import type { RecorderConfiguration } from '../../lib/record';
import { serveInProcess } from '../../lib/target/in-process';
import { serviceDnsNames } from '../../lib/tls';
import { yaml } from '../../lib/yaml';
import { createApp } from '../../examples/pod-defaults/src/app';
import { cli } from '../cli/captured';
import { MUTATE } from '../replay/helpers';
import { fixtures, outDir } from './helpers';

const root = path.join(__dirname, '../..');
const manifest = path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml');
const app = path.join(root, 'examples/pod-defaults/src/app.ts');
// The example with one patch value changed (the first container's CPU limit 500m → 250m). It is built
// from test/replay/helpers, imported here too: jiti, loading it inside Jest's module system, finds it
// already loaded rather than evaluating its imports a second time outside Jest.
const changed = path.join(root, 'test/cli/fixtures/changed-pod-defaults.ts');

/**
 * `admission-harness record ARGS…` started from the command line: its printed configuration once the
 * recorder listens, and its exit code once it stops.
 */
function startRecordCli(args: string[]): { configuration: Promise<RecorderConfiguration>; exit: Promise<number>; printed: string[] } {
  const printed: string[] = [];
  let announced!: (configuration: RecorderConfiguration) => void;
  const configuration = new Promise<RecorderConfiguration>((resolve) => (announced = resolve));
  const exit = runCli(
    ['record', ...args],
    (text) => {
      printed.push(text);
      if (text.startsWith('# recording at ')) announced(yaml().parse(text.slice(text.indexOf('\n') + 1)) as RecorderConfiguration);
    },
    (text) => printed.push(`stderr: ${text}`),
  );
  return { configuration, exit, printed };
}

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
      const { configuration, exit: recording, printed } = startRecordCli(['--out', out.dir, '--max', '2']);
      const h = await createHarness({ target: { url: (await configuration).webhooks![0]!.clientConfig.url! }, manifests: [await configuration], seed: 3 });
      try {
        expect(
          await h.call('recorder.admission-harness.io', review.create(objects.pod({ namespace: 'shop', name: 'web-1', images: ['nginx:1.27'] }))),
        ).toBeAllowed();
        expect(
          await h.call('recorder.admission-harness.io', review.create(objects.pod({ namespace: 'shop', name: 'web-2', images: ['nginx:latest'] }))),
        ).toBeAllowed();
      } finally {
        await h.close();
      }
      expect(await recording).toBe(0);
      expect(printed.slice(1)).toEqual([
        `recorded ${path.join(out.dir, 'pods-create-1.yaml')}`,
        `recorded ${path.join(out.dir, 'pods-create-2.yaml')}`,
        `stopped (max): 2 reviews recorded in ${out.dir}`,
      ]);
      expect(fixtures(out.dir).map((f) => f.document.source.from)).toEqual(['record', 'record']);

      // Nothing to compare yet: --update records the mutating webhook's answers into the fixtures (a
      // fixture holds one response, and both of the example's webhooks match a pod: --webhook names one).
      const updated = await cli('replay', out.dir, '--manifests', manifest, '--module', app, '--webhook', MUTATE, '--update', '--seed', '3');
      expect(updated.stdout).toContain('2 fixtures: 0 passed, 0 failed, 0 new, 2 updated');
      expect(updated.stderr).toBe('');
      expect(updated.code).toBe(0);
      // Then a replay compares them, and passes.
      const replayed = await cli('replay', out.dir, '--manifests', manifest, '--module', app, '--webhook', MUTATE, '--seed', '3', '--json');
      expect(replayed.code).toBe(0);
      const report = JSON.parse(replayed.stdout) as {
        passed: number;
        failed: number;
        fixtures: { verdict: string; compared: boolean; webhooks: { webhook: string; mismatches: unknown[] }[] }[];
      };
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

describe('the example webhook recorded through `record --upstream`, then replayed (issue: done when)', () => {
  it('replays against the same example passes; against an example that changed one patch value fails with the object diff', async () => {
    const out = outDir();
    // The example, served over TLS by a CA of its own, as the real webhook the recorder stands in front of.
    const upstreamAuthority = await CertificateAuthority.create();
    const upstream = await serveInProcess(createApp(), await upstreamAuthority.issueServing());
    const upstreamCa = path.join(out.dir, '..', `${path.basename(out.dir)}-upstream-ca.pem`);
    writeFileSync(upstreamCa, upstreamAuthority.cert);
    const recordings = path.join(out.dir, 'recorded');
    try {
      // The names kube-apiserver verifies for the example's service: the harness calls the recorder in its place.
      const hosts = serviceDnsNames('pod-defaults', 'pod-defaults').flatMap((host) => ['--host', host]);
      const { configuration, exit } = startRecordCli([
        '--out',
        recordings,
        '--upstream',
        `https://127.0.0.1:${upstream.port}`,
        '--upstream-ca',
        upstreamCa,
        ...hosts,
        '--max',
        '2',
      ]);
      const { clientConfig } = (await configuration).webhooks![0]!;
      const ca = Buffer.from(clientConfig.caBundle!, 'base64').toString();
      // The harness plays kube-apiserver with the example's own configuration, its calls going to the recorder.
      const h = await createHarness({ target: { url: clientConfig.url!, ca }, manifests: [manifest], namespaces: [{ name: 'shop' }], seed: 4 });
      try {
        const first = await h.call(MUTATE, review.create(objects.pod({ namespace: 'shop', name: 'web-1', images: ['nginx:1.27'] })));
        const second = await h.call(MUTATE, review.create(objects.pod({ namespace: 'shop', name: 'web-2', images: ['nginx:1.27', 'redis:7.4'] })));
        // The recorder passed the example's answers on unchanged.
        expect(first).toHavePatch();
        expect(second).toHavePatch();
      } finally {
        await h.close();
      }
      expect(await exit).toBe(0);
      expect(fixtures(recordings).map((f) => [f.document.source.from, f.document.source.upstream, f.document.response !== undefined])).toEqual([
        ['record', `https://127.0.0.1:${upstream.port}/`, true],
        ['record', `https://127.0.0.1:${upstream.port}/`, true],
      ]);

      const same = await cli('replay', recordings, '--manifests', manifest, '--module', app, '--webhook', MUTATE);
      expect(same.stderr).toBe('');
      expect(same.stdout).toContain('2 fixtures: 2 passed, 0 failed');
      expect(same.code).toBe(0);
      const differs = await cli('replay', recordings, '--manifests', manifest, '--module', changed, '--webhook', MUTATE);
      expect(differs.stderr).toBe('');
      expect(differs.stdout).toContain('"500m" → "250m"');
      expect(differs.stdout).toContain('2 fixtures: 0 passed, 2 failed');
      expect(differs.code).toBe(1);
    } finally {
      await upstream.close();
      out.cleanup();
    }
  });
});
