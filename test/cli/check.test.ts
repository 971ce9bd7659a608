import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { check } from '../../lib/cli/check';
import { cli } from './captured';

const root = path.join(__dirname, '../..');
const manifests = [path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml')];

async function run(args: Partial<Parameters<typeof check>[0]>): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await check({ manifests, json: false, failFast: false, seed: 5, ...args }, (t) => (text += t));
  return { code, text };
}

describe('admission-harness check', () => {
  it('passes the example webhook and prints a grouped report', async () => {
    const { code, text } = await run({ module: path.join(root, 'examples/pod-defaults/src/app.ts') });
    expect(code).toBe(0);
    expect(text).toMatch(/^admission-harness check · .*app\.ts · 2 webhooks · seed 5$/m);
    expect(text).toContain('pod-defaults.example.com (mutating)');
    expect(text).toContain('image-policy.example.com (validating)');
    expect(text).toMatch(/✓ CREATE pods \(image :latest\) — denied 403: admission webhook "image-policy.example.com" denied the request: /);
    expect(text).toMatch(/^\d+ scenarios run · \d+ checks of \d+ kinds · replay with --seed 5$/m);
    expect(text).toMatch(/^checks: \d+ passed, 0 failed$/m);
  });

  it('fails a webhook that does not echo the uid, with stable check ids in JSON', async () => {
    const { code, text } = await run({ module: path.join(__dirname, 'fixtures/no-uid-echo.ts'), json: true });
    expect(code).toBe(1);
    const report = JSON.parse(text) as { failed: number; checks: { id: string; status: string; webhook: string; detail?: string }[] };
    const failedIds = new Set(report.checks.filter((c) => c.status === 'fail').map((c) => c.id));
    expect([...failedIds].sort()).toEqual(['response-valid', 'uid-echo']);
    expect(report.checks.find((c) => c.id === 'uid-echo' && c.status === 'fail')?.detail).toMatch(/^expected "[0-9a-f-]{36}", got "fixed"$/);
  });

  it('runs only the named checks, and stops at the first failure with --fail-fast', async () => {
    const { text } = await run({ module: path.join(__dirname, 'fixtures/no-uid-echo.ts'), json: true, only: ['uid-echo'], failFast: true });
    const report = JSON.parse(text) as { checks: { id: string }[] };
    expect(report.checks.map((c) => c.id)).toEqual(['uid-echo']);
  });

  it('accepts every check id for --only, the follow-up ones too', async () => {
    const { text } = await run({ module: path.join(root, 'examples/pod-defaults/src/app.ts'), json: true, only: ['idempotent-reinvocation'] });
    const report = JSON.parse(text) as { checks: { id: string; status: string }[] };
    expect(report.checks.length).toBeGreaterThan(0);
    expect(new Set(report.checks.map((c) => c.id))).toEqual(new Set(['idempotent-reinvocation']));
  });

  it('--skip runs every check but the named ones, --only and --skip together the difference', async () => {
    const app = path.join(root, 'examples/pod-defaults/src/app.ts');
    const all = JSON.parse((await run({ module: app, json: true })).text) as { checks: { id: string }[] };
    const { code, text } = await run({ module: app, json: true, skip: ['idempotent-reinvocation', 'uid-echo'] });
    expect(code).toBe(0);
    const ids = new Set((JSON.parse(text) as { checks: { id: string }[] }).checks.map((c) => c.id));
    expect(ids).toEqual(new Set(all.checks.map((c) => c.id).filter((id) => id !== 'idempotent-reinvocation' && id !== 'uid-echo')));
    expect(ids.size).toBeGreaterThan(4);
    const both = JSON.parse((await run({ module: app, json: true, only: ['uid-echo', 'response-valid'], skip: ['uid-echo'] })).text) as {
      checks: { id: string }[];
    };
    expect(new Set(both.checks.map((c) => c.id))).toEqual(new Set(['response-valid']));
  });

  it('rejects an unknown check id with the nearest valid spelling, for --only and --skip alike, and a missing target', async () => {
    await expect(run({ module: 'x', only: ['nope'] })).rejects.toThrow(
      /^--only: unknown check id "nope"\n {2}hint: known check ids: tls-chain, tls-san, .*, idempotent-reinvocation, .*, policy-evaluates, conversion-tls, .*, conversion-timeout-budget$/,
    );
    await expect(run({ module: 'x', skip: ['idempotent-reinvokation'] })).rejects.toThrow(
      /^--skip: unknown check id "idempotent-reinvokation" \(did you mean "idempotent-reinvocation"\?\)\n/,
    );
    await expect(run({ module: 'x', only: ['uid-echoo'] })).rejects.toThrow(/^--only: unknown check id "uid-echoo" \(did you mean "uid-echo"\?\)/);
    await expect(run({})).rejects.toThrow(/a target is needed: --module FILE, --command CMD or --url URL/);
  });

  it('exits 2 with usage for a bad command line', async () => {
    const cli = path.join(root, 'lib/cli/main.ts');
    const result = await promisify(execFile)(process.execPath, ['-r', 'esbuild-register', cli, 'check', '--seed', 'abc'], { cwd: root }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((result as { code: number }).code).toBe(2);
    expect((result as { stderr: string }).stderr).toContain('admission-harness: --seed takes an integer, got abc');
  }, 60_000);

  it('takes --skip on the command line, as --only', async () => {
    const result = await cli('check', '--manifests', manifests[0] as string, '--module', 'x', '--skip', 'uid-ecko');
    expect(result.stderr).toContain('admission-harness: --skip: unknown check id "uid-ecko" (did you mean "uid-echo"?)');
    expect(result.code).toBe(2);
    expect((await cli('check', '--help')).stdout).toContain('--only / --skip CHECK_ID: run only these checks / every check but these (repeatable)');
  });
});

describe('admission-harness check --command', () => {
  it('starts the webhook with certificates and a port, checks it, and stops it', async () => {
    const script = path.join(root, 'test/webhooks/command-webhook.mjs');
    const { code, text } = await run({ command: `node ${script} {port}`, json: true });
    const report = JSON.parse(text) as { failed: number; passed: number };
    expect(code).toBe(0);
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThan(0);
  });

  it('says so when the command exits before answering', async () => {
    await expect(run({ command: 'echo listening nowhere; exit 3' })).rejects.toThrow(
      /the webhook command exited \(3\) before it answered on port \d+: echo listening nowhere; exit 3\nlistening nowhere/,
    );
  });
});

describe('a webhook in another language', () => {
  it('checks a Python webhook started with --command', async () => {
    const script = path.join(root, 'test/webhooks/python-webhook.py');
    const { code, text } = await run({ command: `python3 ${script} {port}`, json: true });
    const report = JSON.parse(text) as { failed: number; checks: { id: string; status: string }[] };
    expect(report.failed).toBe(0);
    expect(new Set(report.checks.map((c) => c.id))).toEqual(
      new Set(['tls-chain', 'tls-san', 'no-server-error', 'response-valid', 'uid-echo', 'review-version', 'patch-type', 'timeout-budget', 'dryrun-honored']),
    );
    expect(code).toBe(0);
  });
});
