// `admission-harness check --manifests crd.yaml <target>`: a CRD with `conversion.strategy: Webhook` in the
// manifests runs the conversion battery against the target, alone or after the admission battery.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { externalReferences } from '../report/offline';
import { cli } from './captured';

jest.setTimeout(180_000);

const root = path.join(__dirname, '../..');
const crd = path.join(root, 'examples/conversion/deploy/crd.yaml');
const example = path.join(root, 'examples/conversion/src/app.ts');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'check-conversion-'));

function module(name: string, source: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, source);
  return file;
}

describe('check --manifests with a conversion webhook', () => {
  it('runs the conversion battery alone when the manifests hold only the CRD (exit 0)', async () => {
    const run = await cli('check', '--manifests', crd, '--module', example, '--seed', '3');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^admission-harness check · conversion webhooks · .*app\.ts · 1 CRDs · seed 3$/m);
    expect(run.stdout).toContain('backups.example.com (conversion webhook)');
    expect(run.stdout).toContain('✓ 3 objects in one review: v1 → v2 — 3 objects converted');
    expect(run.stdout).toMatch(/^5 scenarios run · \d+ checks of 10 kinds · replay with --seed 3$/m);
  });

  it('exits 1 when a check fails, with stable ids in JSON and JUnit', async () => {
    const wrongUid = module(
      'wrong-uid.ts',
      `import { answer } from '${path.join(root, 'examples/conversion/src/app')}';
export default (req: any, res: any) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c));
  req.on('end', () => {
    const good = answer(JSON.parse(body)) as any;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...good, response: { ...good.response, uid: 'mine' } }));
  });
};
`,
    );
    const junit = path.join(tmp, 'junit.xml');
    const run = await cli('check', '--manifests', crd, '--module', wrongUid, '--json', '--junit', junit, '--seed', '3');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { kind: string; checks: { id: string; status: string }[] };
    expect(report.kind).toBe('conversion');
    expect([...new Set(report.checks.filter((c) => c.status === 'fail').map((c) => c.id))].sort()).toEqual([
      'conversion-list',
      'conversion-response-valid',
      'conversion-uid-echo',
    ]);
    expect(readFileSync(junit, 'utf8')).toContain('name="conversion-uid-echo"');
  });

  it('runs both batteries when the manifests hold webhooks too, the conversion report after the admission one', async () => {
    const both = module(
      'both.ts',
      `import { app as admission } from '${path.join(root, 'examples/pod-defaults/src/app')}';
import { app as conversion } from '${path.join(root, 'examples/conversion/src/app')}';
export default (req: any, res: any) => (req.url.startsWith('/convert') ? conversion(req, res) : admission(req, res));
`,
    );
    const manifests = ['--manifests', path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml'), '--manifests', crd];
    const text = await cli('check', ...manifests, '--module', both, '--seed', '3');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('image-policy.example.com (validating)');
    expect(text.stdout).toMatch(/\n\nconversion webhooks\n\nbackups\.example\.com \(conversion webhook\)\n/);
    // The admission battery's coverage is of the admission webhooks: the CRD's conversion webhook is reported apart.
    expect(text.stdout).toContain("admission coverage (the battery's requests):");
    expect(text.stdout).not.toMatch(/conversion backups\.example\.com\s+\|/);
    const json = await cli('check', ...manifests, '--module', both, '--seed', '3', '--json', '--only', 'uid-echo', '--only', 'conversion-list');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as { checks: { id: string }[]; conversion: { kind: string; checks: { id: string }[] } };
    expect(new Set(report.checks.map((c) => c.id))).toEqual(new Set(['uid-echo']));
    expect(report.conversion.checks.map((c) => c.id)).toEqual(['conversion-list']);
    expect(json.stdout).not.toMatch(/"type": ?"conversion"/);
    const html = path.join(tmp, 'both.html');
    expect((await cli('check', ...manifests, '--module', both, '--seed', '3', '--html', html)).code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('image-policy.example.com <span class="muted">(validating)</span>');
    expect(page).toContain('<a href="#conversion-0">backups.example.com (conversion webhook)</a>');
    expect(page).toContain('<section class="group passed" id="conversion-0"><h2>backups.example.com');
  });

  it('writes the HTML report of the conversion battery, failures open and linked', async () => {
    const html = path.join(tmp, 'conversion.html');
    const run = await cli('check', '--manifests', crd, '--module', example, '--seed', '3', '--html', html);
    expect(run.code).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<title>admission-harness check · conversion webhooks</title>');
    expect(page).toContain('backups.example.com <span class="muted">(conversion webhook)</span>');
    expect(page).toContain('<strong>3 objects in one review: v1 → v2</strong>');
    expect(externalReferences(page)).toEqual([]);
  });

  it('says what is wrong (exit 2): an unknown check id, manifests with nothing to check', async () => {
    const typo = await cli('check', '--manifests', crd, '--module', example, '--only', 'conversion-lists');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown check id "conversion-lists" \(did you mean "conversion-list"\?\)/);
    const none = path.join(tmp, 'none.yaml');
    writeFileSync(
      none,
      readFileSync(crd, 'utf8')
        .replace('strategy: Webhook', 'strategy: None')
        .replace(/ {4}webhook:[\s\S]*$/, ''),
    );
    const nothing = await cli('check', '--manifests', none, '--module', example);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain(
      'no MutatingWebhookConfiguration or ValidatingWebhookConfiguration with webhooks, and no admission policy, in the manifests',
    );
    expect(nothing.stderr).toContain('or CustomResourceDefinitions with conversion.strategy Webhook');
  });
});
