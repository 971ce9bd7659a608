// lint names the CustomResourceDefinitions kube-apiserver would refuse on create for their
// x-kubernetes-validations, with kube's texts: the CRD of static-cost-estimate (recorded on a real
// kube-apiserver v1.36.2, test/fixtures/apiserver-cel-cost) beside a policy kube accepted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lintCommand } from '../../lib/cli/lint';
import { refusalFindings } from '../../lib/lint';

interface Step {
  request: { path: string; body: Record<string, unknown> };
  response: { code: number; body: { details?: { causes: { message: string; field: string }[] } } };
}
const recording = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-cel-cost/static-cost-estimate.json'), 'utf8')) as { steps: Step[] };
const crd = recording.steps.find((step) => step.request.path.endsWith('/customresourcedefinitions'))!;
const policy = recording.steps.find((step) => step.request.path.endsWith('/validatingadmissionpolicies'))!;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'lint-crd-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function lintDocuments(...documents: unknown[]) {
  const file = path.join(dir, 'manifests.yaml');
  writeFileSync(file, documents.map((document) => JSON.stringify(document)).join('\n---\n'));
  let output = '';
  const code = await lintCommand({ manifests: [file], json: true }, (text) => {
    output += text;
  });
  return {
    code,
    findings: (JSON.parse(output) as { findings: { id: string; severity: string; configuration: string; webhook: string; message: string }[] }).findings,
  };
}

describe('lint on CustomResourceDefinitions (static-cost-estimate)', () => {
  it("reports each of kube's refusals as an error finding with its field and text (exit 1)", async () => {
    const { code, findings } = await lintDocuments(crd.request.body, policy.request.body);
    expect(code).toBe(1);
    // kube names the hoisted schema spec.validation.openAPIV3Schema; the harness names the version's openAPIV3Schema.
    const expected = crd.response.body.details!.causes.map((cause) => ({
      id: 'crd-rule-cost',
      severity: 'error',
      configuration: 'costly.cel.example.com/v1',
      webhook: cause.field.replace(/^spec\.validation\./, ''),
      message: `kube-apiserver refuses this CustomResourceDefinition: ${cause.field.replace(/^spec\.validation\./, '')}: ${cause.message}`,
    }));
    expect(findings.map(({ id, severity, configuration, webhook, message }) => ({ id, severity, configuration, webhook, message }))).toEqual(expected);
  });

  it('has nothing to say of the policy kube accepted alone', async () => {
    const { code, findings } = await lintDocuments(policy.request.body);
    expect(findings.filter((finding) => finding.id.startsWith('crd-'))).toEqual([]);
    expect(code).toBe(0);
  });

  it('tells a compile error from a cost refusal', () => {
    const findings = refusalFindings([
      {
        kind: 'CustomResourceDefinition',
        name: 'w.example.com/v1',
        where: 'w.example.com/v1',
        errors: ['openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: …'],
      },
    ]);
    expect(findings.map((finding) => finding.id)).toEqual(['crd-rule-invalid']);
  });
});
