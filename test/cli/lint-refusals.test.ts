// `admission-harness lint` reports every object kube-apiserver would refuse on create for its CEL as an
// error finding with kube's text, all at once (exit 1): webhook matchConditions, ValidatingAdmissionPolicy
// and MutatingAdmissionPolicy expressions that do not compile, and the CRD of static-cost-estimate (recorded
// on a real kube-apiserver v1.36.2, test/fixtures/apiserver-cel-cost), refused for its rule's estimated cost.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadManifestSet } from '../../lib/config/load';
import { matchConditionRefusals } from '../../lib/match/conditions';
import { policyRefusals } from '../../lib/policy/prepare';
import { ACCEPTED_WEBHOOK, COSTLY_CAUSES, COSTLY_CRD, manifestFile, MIXED, REFUSED_MUTATION, REFUSED_POLICY, REFUSED_WEBHOOK } from '../lint/refused-manifests';
import { cli } from './captured';

interface JsonFinding {
  id: string;
  severity: string;
  configuration: string;
  webhook: string;
  message: string;
  fix: string;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function fileOf(documents: readonly unknown[]): string {
  const { dir, file } = manifestFile(documents);
  dirs.push(dir);
  return file;
}

// kube names the hoisted schema spec.validation.openAPIV3Schema; the harness names the version's openAPIV3Schema.
const crdField = (field: string) => field.replace(/^spec\.validation\./, '');

/** What lint answers for MIXED, written out from kube's texts (cel-go's literal validators and the recorded 422). */
const EXPECTED: Omit<JsonFinding, 'fix'>[] = [
  ...COSTLY_CAUSES.map((cause) => ({
    id: 'crd-rule-cost',
    severity: 'error',
    configuration: 'costly.cel.example.com/v1',
    webhook: crdField(cause.field),
    message: `kube-apiserver refuses this CustomResourceDefinition: ${crdField(cause.field)}: ${cause.message}`,
  })),
  {
    id: 'match-condition-invalid',
    severity: 'error',
    configuration: 'refused-webhook',
    webhook: 'refused.example.com',
    message:
      "kube-apiserver refuses this ValidatingWebhookConfiguration: webhooks[0].matchConditions[0].expression: Invalid value: \"timestamp('bad') < timestamp(0)\": compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('bad') < timestamp(0)\n | ..........^",
  },
  {
    id: 'policy-expression-invalid',
    severity: 'error',
    configuration: 'refused-policy',
    webhook: 'spec.validations[0].expression',
    message:
      "kube-apiserver refuses this ValidatingAdmissionPolicy: spec.validations[0].expression: Invalid value: \"object.spec.x.matches(')')\": compilation failed: ERROR: <input>:1:23: invalid matches argument\n | object.spec.x.matches(')')\n | ......................^",
  },
  {
    id: 'policy-expression-invalid',
    severity: 'error',
    configuration: 'refused-policy',
    webhook: 'spec.validations[1].expression',
    message:
      "kube-apiserver refuses this ValidatingAdmissionPolicy: spec.validations[1].expression: Invalid value: \"duration('1d') > duration('0')\": compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1d') > duration('0')\n | .........^",
  },
  {
    id: 'policy-expression-invalid',
    severity: 'error',
    configuration: 'refused-mutation',
    webhook: 'spec.mutations[0].applyConfiguration.expression',
    message:
      'kube-apiserver refuses this MutatingAdmissionPolicy: spec.mutations[0].applyConfiguration.expression: Invalid value: "Object{metadata: Object.metadata{labels: {\\"mutated\\": string(duration(\'1x\'))}}}": compilation failed: ERROR: <input>:1:70: invalid duration argument\n | Object{metadata: Object.metadata{labels: {"mutated": string(duration(\'1x\'))}}}\n | .....................................................................^',
  },
];

describe('lint: objects kube-apiserver refuses on create, as error findings', () => {
  it('--json: every refusal at once, with kube’s texts, across CRDs, webhooks, VAPs and MAPs (exit 1)', async () => {
    const { code, stdout, stderr } = await cli('lint', '--manifests', fileOf(MIXED), '--json');
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const findings = (JSON.parse(stdout) as { findings: JsonFinding[] }).findings;
    // The accepted webhook configuration is careful: every finding is a refusal.
    expect(findings.map(({ fix: _fix, ...finding }) => finding)).toEqual(EXPECTED);
    expect(findings.every((finding) => finding.fix.length > 0)).toBe(true);
  });

  it('each finding’s text is the field error createHarness and the other commands stop with (one source)', async () => {
    const set = loadManifestSet([REFUSED_WEBHOOK, REFUSED_POLICY, REFUSED_MUTATION]);
    const errors = [...(await matchConditionRefusals(set.webhooks)), ...(await policyRefusals(set))].flatMap((refusal) =>
      refusal.errors.map((error) => `kube-apiserver refuses this ${refusal.kind}: ${error}`),
    );
    expect(errors).toEqual(EXPECTED.filter((finding) => !finding.id.startsWith('crd-')).map((finding) => finding.message));
  });

  it('human output: a title per finding, kube’s text under it (caret lines kept under their expression), the fix', async () => {
    const { code, stdout } = await cli('lint', '--manifests', fileOf(MIXED));
    expect(code).toBe(1);
    expect(stdout.match(/^error {3}\S+ · .+$/gm)).toEqual(EXPECTED.map((finding) => `error   ${finding.id} · ${finding.configuration}/${finding.webhook}`));
    expect(stdout).toContain(
      [
        'error   match-condition-invalid · refused-webhook/refused.example.com',
        '        kube-apiserver refuses this ValidatingWebhookConfiguration: webhooks[0].matchConditions[0].expression: Invalid value: "timestamp(\'bad\') < timestamp(0)": compilation failed: ERROR: <input>:1:11: invalid timestamp argument',
        "         | timestamp('bad') < timestamp(0)",
        '         | ..........^',
        '        fix: fix the matchCondition named: kube-apiserver refuses the whole configuration, so none of its webhooks is ever called',
      ].join('\n'),
    );
  });

  it('CustomResourceDefinitions alone are linted: the cost refusal, exit 1', async () => {
    const { code, stdout } = await cli('lint', '--manifests', fileOf([COSTLY_CRD]), '--json');
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as { findings: JsonFinding[] }).findings.map((finding) => finding.message)).toEqual(
      EXPECTED.filter((finding) => finding.id === 'crd-rule-cost').map((finding) => finding.message),
    );
  });

  it('a clean file still has no findings: exit 0', async () => {
    const human = await cli('lint', '--manifests', fileOf([ACCEPTED_WEBHOOK]));
    expect(human).toEqual({ code: 0, stdout: 'no findings\n', stderr: '' });
    const json = await cli('lint', '--manifests', fileOf([ACCEPTED_WEBHOOK]), '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ findings: [] });
  });

  it('a refused webhook configuration gets no good-practice findings: kube does not keep it', async () => {
    const careless = structuredClone(REFUSED_WEBHOOK) as { webhooks: { timeoutSeconds: number }[] };
    careless.webhooks[0]!.timeoutSeconds = 30;
    const { stdout } = await cli('lint', '--manifests', fileOf([careless]), '--json');
    expect((JSON.parse(stdout) as { findings: JsonFinding[] }).findings.map((finding) => finding.id)).toEqual(['match-condition-invalid']);
  });

  it('the other commands stop at such objects (exit 2), naming every one at once, with the same texts', async () => {
    const review = path.join(__dirname, 'fixtures/pod-create-review.yaml');
    const { code, stderr } = await cli('explain', '--manifests', fileOf([REFUSED_WEBHOOK, REFUSED_POLICY, REFUSED_MUTATION]), '--review', review);
    expect(code).toBe(2);
    expect(stderr.split('\n').filter((line) => /^(admission-harness: )?invalid /.test(line))).toEqual([
      'admission-harness: invalid webhook configuration:',
      'invalid admission policy:',
    ]);
    const texts = EXPECTED.filter((finding) => !finding.id.startsWith('crd-')).map((finding) =>
      finding.message.replace(/^kube-apiserver refuses this \w+: /, ''),
    );
    for (const text of texts) expect(stderr).toContain(text);
  });

  it('usage and setup errors stay exit 2: an unreadable file, YAML that does not parse', async () => {
    expect((await cli('lint', '--manifests', '/nonexistent/manifests.yaml')).code).toBe(2);
    const broken = fileOf([]);
    writeFileSync(broken, 'kind: [unclosed\n');
    expect((await cli('lint', '--manifests', broken)).code).toBe(2);
  });
});
