// Inputs checked as strictly as kubectl checks them, the same way by every command.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './captured';

const root = path.join(__dirname, '../..');
const basic = path.join(root, 'test/suites/basic.suite.yaml');

let tmp: string;
const write = (name: string, text: string): string => {
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
};
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ah-inputs-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CONDITION = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: conditions}
webhooks:
  - name: conditions.example.com
    clientConfig: {url: "https://conditions.example.com/"}
    sideEffects: None
    admissionReviewVersions: [v1]
    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
    matchConditions:
      - name: broken
        expression: "object.metadata.name =="
`;

describe('manifests', () => {
  it('lint reports as a finding, with the same text, the matchCondition explain stops at (it does not compile)', async () => {
    const file = write('conditions.yaml', CONDITION);
    const review = path.join(root, 'test/cli/fixtures/deployment-scale-review.yaml');
    const linted = await cli('lint', '--manifests', file, '--json');
    const explained = await cli('explain', '--manifests', file, '--review', review);
    expect(explained.code).toBe(2);
    expect(explained.stderr).toMatch(
      /^admission-harness: invalid webhook configuration:\n {2}.*conditions\.yaml doc 1 \(ValidatingWebhookConfiguration "conditions"\) webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: /,
    );
    expect(linted.code).toBe(1);
    const [finding] = (JSON.parse(linted.stdout) as { findings: { id: string; message: string }[] }).findings;
    expect(finding!.id).toBe('match-condition-invalid');
    const fieldError = finding!.message.replace(/^kube-apiserver refuses this ValidatingWebhookConfiguration: /, '').split('\n')[0]!;
    expect(fieldError).toMatch(/^webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: /);
    expect(explained.stderr.split('\n')[1]).toBe(`  ${file} doc 1 (ValidatingWebhookConfiguration "conditions") ${fieldError}`);
  });

  it.each(['lint', 'check', 'explain'])('%s: files without a webhook configuration or policy are a usage error that says what they hold', async (command) => {
    const file = write(
      `workload-${command}.yaml`,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\n',
    );
    const extra =
      command === 'check'
        ? ['--module', path.join(root, 'examples/pod-defaults/src/app.ts')]
        : command === 'explain'
          ? ['--review', path.join(root, 'test/cli/fixtures/deployment-scale-review.yaml')]
          : [];
    const result = await cli(command, '--manifests', file, ...extra);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `admission-harness: no MutatingWebhookConfiguration or ValidatingWebhookConfiguration with webhooks, and no admission policy, in the manifests; read ${file}: Deployment "web", Service "web"`,
    );
  });

  it('an unknown field names the nearest known one', async () => {
    const file = write('typo.yaml', CONDITION.replace(/ {4}matchConditions:[\s\S]*$/, '    timeoutSecond: 5\n'));
    const result = await cli('lint', '--manifests', file);
    expect(result.stderr).toContain(
      '(ValidatingWebhookConfiguration "conditions") webhooks[0].timeoutSecond: unknown field "timeoutSecond" (did you mean "timeoutSeconds"?)',
    );
    expect(result.code).toBe(2);
  });
});

describe('suite files', () => {
  it('test reports an invalid suite file as a failed file and runs the others', async () => {
    const broken = write('broken.suite.yaml', readFileSync(basic, 'utf8').replace('callCounts:', 'callCount:'));
    const result = await cli('test', broken, basic);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${broken}\n  ✗ not a valid suite file:\n      invalid suite:\n        ${broken} cases[1].expect.callCount: unknown field "callCount" (did you mean "callCounts"?)`,
    );
    expect(result.stdout).toContain(`${basic}\n  ✓ `);
    expect(result.stdout).toMatch(/^3 passed, 1 failed, 1 invalid file$/m);
  });

  it('refuses expect: {}, which would pass whatever happens', async () => {
    const empty = write(
      'empty-expect.suite.yaml',
      readFileSync(basic, 'utf8').replace(/expect:\n {6}allowed: true\n {6}called: \[peer\.example\.com\]\n?$/, 'expect: {}\n'),
    );
    const result = await cli('test', empty, '--json');
    const report = JSON.parse(result.stdout) as { invalidFiles: { file: string; message: string }[] };
    expect(report.invalidFiles).toHaveLength(1);
    expect(report.invalidFiles[0]?.message).toMatch(/cases\[\d\]\.expect: Required value: at least one expectation \(allowed, code, /);
  });
});
