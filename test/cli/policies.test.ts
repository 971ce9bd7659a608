// `check`, `lint` and `explain` on manifests that hold ValidatingAdmissionPolicies and no webhook.
import path from 'node:path';
import { cli } from './captured';

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

describe('admission-harness check with policies only', () => {
  it('evaluates each policy on every request its rules match, without a webhook target; all pass', async () => {
    const { code, stdout } = await cli('check', '--manifests', fixture('policies.yaml'), '--seed', '4');
    expect(code).toBe(0);
    expect(stdout).toContain('admission-harness check · no webhook target · 0 webhooks · 1 ValidatingAdmissionPolicies · seed 4');
    expect(stdout).toContain('ValidatingAdmissionPolicy guarded');
    expect(stdout).toMatch(/✓ .*DELETE.* — allowed/);
    expect(stdout).toMatch(/checks: \d+ passed, 0 failed/);
  });

  it('fails policy-evaluates where an expression cannot evaluate (a DELETE has no object), with the consequence and the trace', async () => {
    const { code, stdout } = await cli('check', '--manifests', fixture('policies-fragile.yaml'), '--seed', '4');
    expect(code).toBe(1);
    expect(stdout).toContain(
      "✗ policy-evaluates: expression 'object.spec.containers.all(c, !c.image.endsWith(':latest'))' resulted in error: no such key: spec (failurePolicy Fail denies every such request; guard the expression, e.g. with has() or request.operation)",
    );
    expect(stdout).toContain('ValidatingAdmissionPolicy fragile with binding fragile-binding: failed [0]');
  });

  it('--json lists the policy checks with the errors', async () => {
    const { code, stdout } = await cli('check', '--manifests', fixture('policies-fragile.yaml'), '--seed', '4', '--json', '--only', 'policy-evaluates');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { checks: { id: string; policy?: string; status: string; errors?: string[] }[] };
    const failed = report.checks.filter((c) => c.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.id === 'policy-evaluates' && c.policy === 'fragile')).toBe(true);
    expect(failed[0]!.errors).toEqual(["expression 'object.spec.containers.all(c, !c.image.endsWith(':latest'))' resulted in error: no such key: spec"]);
  });

  it('a time zone in a timestamp accessor never stops the run: a fixed offset is read, an unknown zone is that policy’s error', async () => {
    const { code, stdout, stderr } = await cli(
      'check',
      '--manifests',
      fixture('policy-time-zones.yaml'),
      '--seed',
      '4',
      '--json',
      '--only',
      'policy-evaluates',
    );
    expect(stderr).not.toContain('RangeError');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { checks: { policy?: string; status: string; errors?: string[] }[] };
    const officeHours = report.checks.filter((c) => c.policy === 'office-hours');
    expect(officeHours.length).toBeGreaterThan(0);
    expect(officeHours.every((c) => c.status === 'pass')).toBe(true);
    const failed = report.checks.filter((c) => c.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.policy === 'mars-time')).toBe(true);
    expect(failed[0]!.errors).toEqual([
      "expression 'timestamp('2024-03-10T07:30:15Z').getHours('Mars/Olympus') < 12' resulted in error: unknown time zone Mars/Olympus",
    ]);
  });

  it('lint loads policy-only manifests instead of refusing them', async () => {
    expect((await cli('lint', '--manifests', fixture('policies.yaml'))).code).toBe(0);
  });
});

describe('admission-harness check with a MutatingAdmissionPolicy only', () => {
  it('evaluates it in-process on the battery’s requests and reports what it did', async () => {
    const { code, stdout } = await cli('check', '--manifests', fixture('mutating-policy.yaml'), '--seed', '4');
    expect(stdout).toContain('admission-harness check · no webhook target · 0 webhooks · 1 MutatingAdmissionPolicies · seed 4');
    expect(stdout).toMatch(/MutatingAdmissionPolicy add-team\n {2}✓ CREATE pods — mutated/);
    expect(code).toBe(0);
  });
});

describe('admission-harness lint on policies', () => {
  it('reports the type checking kube-apiserver writes into status.typeChecking, as a warning (exit 0)', async () => {
    const { code, stdout } = await cli('lint', '--manifests', fixture('policy-typo.yaml'), '--json');
    expect(code).toBe(0);
    const { findings } = JSON.parse(stdout) as { findings: { id: string; severity: string; configuration: string; webhook: string; message: string }[] };
    expect(findings).toEqual([
      expect.objectContaining({
        id: 'policy-type-check',
        severity: 'warning',
        configuration: 'typo',
        webhook: 'spec.validations[0].expression',
        message: expect.stringMatching(/^\/v1, Kind=Pod: ERROR: <input>:1:12: undefined field 'containerz'/),
      }),
    ]);
  });
});

describe('--disable-admission-plugins', () => {
  it('runs the cluster without the plugins named, and refuses a name it does not know (exit 2)', async () => {
    expect((await cli('check', '--manifests', fixture('policies.yaml'), '--disable-admission-plugins', 'PodSecurity,ResourceQuota')).code).toBe(0);
    const unknown = await cli('check', '--manifests', fixture('policies.yaml'), '--disable-admission-plugins', 'PodSecurty');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--disable-admission-plugins names "PodSecurty" (did you mean "PodSecurity"?), which the harness does not run');
  });
});
