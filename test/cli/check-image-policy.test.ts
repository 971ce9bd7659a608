// `admission-harness check --image-policy-config FILE <target>`: the ImagePolicyWebhook backend battery
// from the command line, its exit codes (0 passed, 1 a check failed, 2 usage or setup error) and reports.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { externalReferences } from '../report/offline';
import { cli } from './captured';

jest.setTimeout(120_000);

const root = path.join(__dirname, '../..');
const config = path.join(root, 'examples/image-policy/deploy/admission.yaml');
const example = path.join(root, 'examples/image-policy/src/app.ts');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'check-image-policy-'));

/** A module exporting a backend that denies every image without a reason. */
function module(name: string, source: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, source);
  return file;
}

// kubeConfigFile is relative to the working directory, as kube-apiserver reads it: the tests run from the root.
const cwd = process.cwd();
beforeAll(() => process.chdir(root));
afterAll(() => process.chdir(cwd));

describe('check --image-policy-config', () => {
  it('passes the example backend (exit 0), with a grouped report and the notes on defaultAllow and the cache', async () => {
    const run = await cli('check', '--image-policy-config', config, '--module', example, '--seed', '4');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^admission-harness check · ImagePolicyWebhook · .*app\.ts · seed 4$/m);
    expect(run.stdout).toContain('https://image-policy.example.com:8443/review (ImagePolicyWebhook backend)');
    expect(run.stdout).toMatch(/✓ an ephemeral container \(UPDATE pods\/ephemeralcontainers\) — denied: busybox:1\.36: registry docker\.io is not allowed/);
    expect(run.stdout).toContain('note: defaultAllow: false: while the backend fails');
    expect(run.stdout).toMatch(/^7 scenarios run · \d+ checks of 7 kinds · replay with --seed 4$/m);
    expect(run.stdout).toMatch(/^checks: \d+ passed, 0 failed$/m);
  });

  it('writes the HTML report: failures open, linked from the summary, the request and the answer shown', async () => {
    const backend = module(
      'no-reason-html.ts',
      `export default (req: any, res: any) => { req.resume(); req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"apiVersion":"imagepolicy.k8s.io/v1alpha1","kind":"ImageReview","status":{"allowed":false}}')); };\n`,
    );
    const html = path.join(tmp, 'image-policy.html');
    const run = await cli('check', '--image-policy-config', config, '--module', backend, '--html', html, '--seed', '4');
    expect(run.code).toBe(1);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<title>admission-harness check · ImagePolicyWebhook</title>');
    expect(page).toMatch(
      /<li><a href="#image-policy-scenario-0">https:\/\/image-policy\.example\.com:8443\/review · a pod \(CREATE\): image-deny-reason<\/a><\/li>/,
    );
    expect(page).toContain('<details class="item scenario failed" id="image-policy-scenario-0" open>');
    expect(page).toContain('POST https://image-policy.example.com:8443/review?timeout=30s');
    expect(externalReferences(page)).toEqual([]);
  });

  it('exits 1 on a failed check, with stable ids in JSON and JUnit', async () => {
    const backend = module(
      'no-reason.ts',
      `export default (req: any, res: any) => { req.resume(); req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"apiVersion":"imagepolicy.k8s.io/v1alpha1","kind":"ImageReview","status":{"allowed":false}}')); };\n`,
    );
    const junit = path.join(tmp, 'junit.xml');
    const run = await cli('check', '--image-policy-config', config, '--module', backend, '--json', '--junit', junit, '--seed', '4');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { kind: string; failed: number; checks: { id: string; status: string; details?: string[] }[] };
    expect(report.kind).toBe('ImagePolicyWebhook');
    expect(report.failed).toBe(7);
    const failed = report.checks.filter((c) => c.status === 'fail');
    expect(new Set(failed.map((c) => c.id))).toEqual(new Set(['image-deny-reason']));
    expect(failed[0]?.details?.[0]).toBe('POST https://image-policy.example.com:8443/review?timeout=30s');
    expect(readFileSync(junit, 'utf8')).toContain('name="image-deny-reason"');
  });

  it('--only takes the battery’s check ids, with the nearest spelling of an unknown one (exit 2)', async () => {
    const only = await cli('check', '--image-policy-config', config, '--module', example, '--json', '--only', 'image-deny-reason');
    expect(only.code).toBe(0);
    expect(new Set((JSON.parse(only.stdout) as { checks: { id: string }[] }).checks.map((c) => c.id))).toEqual(new Set(['image-deny-reason']));
    const typo = await cli('check', '--image-policy-config', config, '--module', example, '--only', 'image-deny-reasons');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^admission-harness: --only: unknown check id "image-deny-reasons" \(did you mean "image-deny-reason"\?\)/);
  });

  it('says what is wrong with the setup (exit 2): no target, --manifests beside it, a missing file, an admission-only option', async () => {
    const none = await cli('check', '--image-policy-config', config);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('a target is needed: --module FILE, --command CMD or --url URL');
    const both = await cli('check', '--image-policy-config', config, '--manifests', 'examples/pod-defaults/deploy/webhooks.yaml', '--module', example);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--image-policy-config checks an ImagePolicyWebhook backend; --manifests checks webhooks and policies: give one');
    const missing = await cli('check', '--image-policy-config', 'nowhere.yaml', '--module', example);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^admission-harness: the AdmissionConfiguration nowhere\.yaml: ENOENT/);
    const shard = await cli('check', '--image-policy-config', config, '--module', example, '--shard', '1/2');
    expect(shard.code).toBe(2);
    expect(shard.stderr).toContain('--shard applies to the admission battery (--manifests), not to --image-policy-config');
    const mockApi = await cli('check', '--image-policy-config', config, '--module', example, '--mock-api');
    expect(mockApi.code).toBe(2);
    expect(mockApi.stderr).toContain('--mock-api applies to the admission battery (--manifests), not to --image-policy-config');
  });

  it("starts a backend process with --command, its certificate for the kubeconfig server's host", async () => {
    const run = await cli(
      'check',
      '--image-policy-config',
      config,
      '--command',
      `node ${path.join(root, 'test/webhooks/image-policy-backend.mjs')}`,
      '--seed',
      '4',
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The generated pod of some seeds pins every image by digest, so the seed is fixed; this scenario's image is not generated.
    expect(run.stdout).toMatch(/✓ an image without registry or tag \(CREATE\) — denied: not pinned: nginx · /);
  });

  it('takes the plugin configuration alone (ImagePolicyWebhookConfiguration) too', async () => {
    const file = path.join(tmp, 'imagepolicy.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: ImagePolicyWebhookConfiguration\nimagePolicy:\n  kubeConfigFile: examples/image-policy/deploy/imagepolicy.kubeconfig\n  defaultAllow: true\n',
    );
    const run = await cli('check', '--image-policy-config', file, '--module', example);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('note: defaultAllow: true');
    expect(run.stdout).toContain('an allow for 300 s (allowTTL), a denial for 30 s (denyTTL)');
  });
});
