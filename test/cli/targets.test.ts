// How `check` treats the process or server it checks: readiness without a request, a process that dies
// mid-run, nothing (or plain HTTP) behind --url, --ready-timeout, --time-scale and concurrent scenarios.
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { check } from '../../lib/cli/check';
import type { CheckArgs } from '../../lib/cli/check-args';
import { createHarness, objects, review } from '../../lib';
import { freePort } from '../../lib/net/loopback-server';
import { loadManifests } from '../../lib/config/load';
import { planBattery } from '../../lib/battery/battery';
import { inFlight } from './fixtures/hanging';

const root = path.join(__dirname, '../..');
const manifests = [path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml')];
const webhooks = path.join(root, 'test/webhooks');

async function run(args: Partial<CheckArgs>): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await check({ manifests, json: false, failFast: false, seed: 5, ...args }, (t) => (text += t));
  return { code, text };
}

interface JsonReport {
  passed: number;
  failed: number;
  checks: { id: string; status: string; scenario: string; webhook: string; detail?: string; url?: string }[];
  error?: { message: string; webhook: string; scenario: string; exit: { code: number | null; signal: string | null; stderr: string[]; command: string } };
  notRun: { webhook: string; scenario: string }[];
}

describe('a --command webhook', () => {
  it('is ready once it accepts a verified TLS handshake: a naive webhook that dies on any other body gets its verdicts', async () => {
    const { code, text } = await run({ command: `node ${webhooks}/naive-webhook.mjs`, json: true });
    const report = JSON.parse(text) as JsonReport;
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.passed).toBeGreaterThan(20);
    expect(report.notRun).toEqual([]);
    expect(code).toBe(0);
  });

  it('that dies mid-run is reported once and first: exit code, last stderr lines, the scenario; the rest is not run, exit 1', async () => {
    const { code, text } = await run({ command: `node ${webhooks}/dying-webhook.mjs 3`, concurrency: 1 });
    expect(code).toBe(1);
    expect(text.match(/the webhook process ended/g)).toHaveLength(1);
    // Right under the header, before the scenarios that ran.
    expect(text).toMatch(/^admission-harness check · .*\n\n✗ the webhook process ended \(exit code 3\) during pod-defaults\.example\.com · \S.*$/m);
    expect(text).toContain(
      `  command: node ${webhooks}/dying-webhook.mjs 3\n  last lines of its stderr:\n    handling CREATE pods\n    fatal: connection pool exhausted\n  this scenario and those after it were not run (listed at the end)`,
    );
    expect(text).toMatch(/^not run \(\d+\):$/m);
    expect(text).not.toContain('connection refused');

    const junit = path.join(os.tmpdir(), `ah-dying-${process.pid}.xml`);
    const json = JSON.parse((await run({ command: `node ${webhooks}/dying-webhook.mjs 3`, concurrency: 1, json: true, junit })).text) as JsonReport;
    const xml = readFileSync(junit, 'utf8');
    rmSync(junit);
    expect(xml.match(/<failure message="✗ the webhook process ended \(exit code 3\)/g)).toHaveLength(1);
    expect(xml.match(/<skipped message="the webhook process ended before this scenario"\/>/g)).toHaveLength(json.notRun.length);
    expect(json.error).toMatchObject({
      webhook: 'pod-defaults.example.com',
      exit: { code: 3, signal: null, stderr: ['handling CREATE pods', 'fatal: connection pool exhausted'] },
    });
    expect(json.error?.message).toMatch(/^the webhook process ended \(exit code 3\) during pod-defaults\.example\.com · /);
    // The scenarios before the one it died in are reported whole; that one and the rest are not run.
    const { plan } = planBattery(loadManifests(manifests), 5);
    const died = plan.findIndex((p) => p.webhook === json.error?.webhook && p.scenario.title === json.error.scenario);
    expect(died).toBeGreaterThan(0);
    expect([...new Set(json.checks.map((c) => c.scenario))]).toEqual(plan.slice(0, died).map((p) => p.scenario.title));
    expect(json.notRun).toEqual(plan.slice(died).map((p) => ({ webhook: p.webhook, scenario: p.scenario.title })));
  });

  describe('that exits after 5 answers, between a scenario and its reinvocation', () => {
    const command = `node ${webhooks}/exits-after.mjs 5`;
    const stderr = ['served 5 requests', 'fatal: heap limit reached, exiting'];
    // One scenario at a time: the mutating webhook's scenarios make 3 calls each (the call, its reinvocation
    // with its own output, and with its changes preset), so the 5th answer is the 2nd scenario's reinvocation
    // and the process is gone when that scenario calls a 3rd time.
    const { plan } = planBattery(loadManifests(manifests), 5);

    it('is its exit, reported first in the human report, and not the checks its death failed; exit 1', async () => {
      const { code, text } = await run({ command, concurrency: 1 });
      expect(code).toBe(1);
      const lines = text.split('\n');
      expect(lines.slice(1, 8)).toEqual([
        '',
        `✗ the webhook process ended (exit code 1) during pod-defaults.example.com · ${plan[1]?.scenario.title}`,
        `  command: ${command}`,
        '  last lines of its stderr:',
        ...stderr.map((line) => `    ${line}`),
        '  this scenario and those after it were not run (listed at the end); the checks below ran before the process ended',
      ]);
      expect(lines[9]).toBe('pod-defaults.example.com (mutating)');
      expect(lines[10]).toMatch(new RegExp(`^  ✓ ${plan[0]?.scenario.title} — allowed, patch of 1 op · \\d+ ms$`));
      // Not an idempotence failure, not a connection error: the only ✗ is the exit.
      expect(text).not.toMatch(/EOF|connection refused|idempotent-(reinvocation|preset):/);
      expect(text.match(/✗/g)).toHaveLength(1);
      expect(text).toContain(['', `not run (${plan.length - 1}):`, ...plan.slice(1).map((p) => `  - ${p.webhook} · ${p.scenario.title}`), ''].join('\n'));
      expect(text).toMatch(new RegExp(`^1 scenarios run, ${plan.length - 1} not run \\(the process exited: exit code 1\\) · `, 'm'));
      expect(text).toMatch(/^checks: \d+ passed, 0 failed$/m);
    }, 30_000);

    it('comes first in JSON and JUnit too, with the rest not run (skipped), not failed', async () => {
      const junit = path.join(os.tmpdir(), `ah-exits-after-${process.pid}.xml`);
      const { code, text } = await run({ command, concurrency: 1, json: true, junit });
      const xml = readFileSync(junit, 'utf8');
      rmSync(junit);
      expect(code).toBe(1);
      const json = JSON.parse(text) as JsonReport;
      expect(Object.keys(json)[0]).toBe('error');
      expect(json.error).toEqual({
        message: `the webhook process ended (exit code 1) during pod-defaults.example.com · ${plan[1]?.scenario.title}`,
        webhook: 'pod-defaults.example.com',
        scenario: plan[1]?.scenario.title,
        exit: { command, code: 1, signal: null, stderr },
      });
      expect(json.failed).toBe(0);
      expect(new Set(json.checks.map((c) => c.scenario))).toEqual(new Set([plan[0]?.scenario.title]));
      expect(json.notRun).toEqual(plan.slice(1).map((p) => ({ webhook: p.webhook, scenario: p.scenario.title })));

      const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map((m) => `${m[1]} / ${m[2]}`);
      expect(cases[0]).toBe(`pod-defaults.example.com · ${plan[1]?.scenario.title} / target-process`);
      expect(xml.match(/<failure /g)).toHaveLength(1);
      expect(xml).toMatch(/<testsuites tests="\d+" failures="1">/);
      expect(cases.filter((c) => c.endsWith(' / not run'))).toEqual(plan.slice(1).map((p) => `${p.webhook} · ${p.scenario.title} / not run`));
      expect(xml.match(/<skipped message="the webhook process ended before this scenario"\/>/g)).toHaveLength(plan.length - 1);
    }, 30_000);

    it('with scenarios in flight at once, still one exit and no failed checks', async () => {
      const { code, text } = await run({ command, json: true });
      expect(code).toBe(1);
      const json = JSON.parse(text) as JsonReport;
      expect(json.error?.exit).toEqual({ command, code: 1, signal: null, stderr });
      expect(json.checks.filter((c) => c.status === 'fail')).toEqual([]);
      // What ran is a prefix of the plan, and everything from the scenario it died in on is not run.
      const died = plan.findIndex((p) => p.webhook === json.error?.webhook && p.scenario.title === json.error.scenario);
      expect(json.notRun).toEqual(plan.slice(died).map((p) => ({ webhook: p.webhook, scenario: p.scenario.title })));
    }, 30_000);
  });

  it('--ready-timeout bounds how long the process may take to accept a handshake', async () => {
    await expect(run({ command: 'sleep 30', readyTimeoutSeconds: 0.3 })).rejects.toThrow(
      /^the webhook command did not accept a TLS handshake on port \d+ within 0\.3 s \(connection refused\): sleep 30/,
    );
  });

  it('--ready-timeout is refused without --command', async () => {
    await expect(run({ url: 'https://127.0.0.1:1', readyTimeoutSeconds: 1 })).rejects.toThrow('--ready-timeout applies to --command only');
  });
});

describe('a --url server', () => {
  it('that does not listen is a setup error, said once before any scenario', async () => {
    const port = await freePort();
    await expect(run({ url: `https://127.0.0.1:${port}` })).rejects.toThrow(
      `--url https://127.0.0.1:${port}: nothing listens at 127.0.0.1:${port} (connection refused)`,
    );
  });

  it('that answers in plain HTTP is told so, not with OpenSSL’s words', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const failure = run({ url: `http://127.0.0.1:${port}`.replace('http:', 'https:') });
      await expect(failure).rejects.toThrow(`--url https://127.0.0.1:${port}: the server answered in plain HTTP; webhooks must serve HTTPS`);
      await expect(failure).rejects.not.toThrow(/SSL|wrong version/);

      // A call reaching it anyway fails as kube-apiserver's does, with Go's words for it.
      const h = await createHarness({ target: { url: `https://127.0.0.1:${port}` }, seed: 1 });
      const outcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));
      await h.close();
      expect(outcome.error?.message).toMatch(
        /^failed calling webhook "validating\.harness\.local": failed to call webhook: Post "https:\/\/localhost\/validate\?timeout=10s": http: server gave HTTP response to HTTPS client$/,
      );
      expect(outcome.error?.hint).toBe('the server answered in plain HTTP; webhooks must serve HTTPS');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('--time-scale and concurrent scenarios', () => {
  it('a hanging webhook costs its scaled timeout per batch of scenarios, reported in plan order', async () => {
    inFlight.most = 0;
    const { code, text } = await run({ module: path.join(__dirname, 'fixtures/hanging.ts'), timeScale: 0.1, json: true });
    expect(code).toBe(1);
    const report = JSON.parse(text) as JsonReport;
    const timeouts = report.checks.filter((c) => c.id === 'timeout-budget');
    expect(timeouts.length).toBeGreaterThan(8);
    for (const c of timeouts) expect(c).toMatchObject({ status: 'fail', detail: expect.stringMatching(/\?timeout=(5|10)s": context deadline exceeded$/) });
    // Four in flight at once (the default), and the report in the plan's order.
    expect(inFlight.most).toBe(4);
    const { plan } = planBattery(loadManifests(manifests), 5, 0.1);
    expect([...new Set(report.checks.map((c) => `${c.webhook} · ${c.scenario}`))]).toEqual(plan.map((p) => `${p.webhook} · ${p.scenario.title}`));
  });

  it('says the time scale in the report header', async () => {
    inFlight.most = 0;
    const { text } = await run({ module: path.join(__dirname, 'fixtures/hanging.ts'), timeScale: 0.05, concurrency: 2, only: ['timeout-budget'] });
    expect(text).toMatch(/^admission-harness check · .*hanging\.ts · 2 webhooks · seed 5 · time scale 0\.05$/m);
    expect(inFlight.most).toBe(2);
  });
});
