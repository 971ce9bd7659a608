// Recorded outcomes of a real kube-apiserver v1.36.2 (test/fixtures/apiserver-policies: psa-restricted-sidecar,
// namespace-terminating, resourcequota-sidecar) run as suite files, the way a user describes such a cluster:
// built-in plugins, --allow-privileged, objects in any order, and suites with no configuration at all.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSuite } from '../../scenarios';
import { parseSuite } from '../../lib/suite/parse';
import { runCli } from '../../lib/cli/run';

const fixtures = path.join(__dirname, '../fixtures/apiserver-policies');
const suites = path.join(__dirname, 'apiserver-policies');
const suite = (name: string) => path.join(suites, `${name}.suite.yaml`);

interface Recording {
  requests: { label: string; response: { status: number; body: { message?: string; reason?: string }; warnings: string[] }; webhookCalls: unknown[] }[];
}

/** Each recording and the suite files that replay its requests (one cluster per file). */
const RECORDED: Record<string, string[]> = {
  'psa-restricted-sidecar': ['psa-restricted-sidecar', 'psa-restricted-sidecar-warn', 'psa-restricted-sidecar-control'],
  'namespace-terminating': ['namespace-terminating'],
  'resourcequota-sidecar': ['resourcequota-sidecar'],
};
const recording = (basename: string) => JSON.parse(readFileSync(path.join(fixtures, `${basename}.json`), 'utf8')) as Recording;

/** The text a client reads from a `Warning: 299 - "<text>"` header (quotes and backslashes escaped). */
function warningText(header: string): string {
  const quoted = /^299 - "(.*)"$/.exec(header);
  if (!quoted) throw new Error(`not a 299 warning header: ${header}`);
  return quoted[1]!.replace(/\\(["\\])/g, '$1');
}

// Every case as a Jest test: the harness gives what the suite expects.
for (const file of [...Object.values(RECORDED).flat(), 'psa-restricted-sidecar-default-flags']) runSuite(suite(file));

describe.each(Object.entries(RECORDED))('%s: the suites expect what kube-apiserver answered', (basename, files) => {
  const recorded = recording(basename);
  const cases = files.flatMap((file) => parseSuite(suite(file)).cases);

  it('replays every recorded request, by its label', () => {
    expect(cases.map((c) => c.name).sort()).toEqual(recorded.requests.map((r) => r.label).sort());
  });

  it.each(recorded.requests.map((r) => [r.label, r] as const))('%s: code, reason, exact message, warnings and webhook calls', (label, request) => {
    const { expect: expected } = cases.find((c) => c.name === label)!;
    const { status, body, warnings } = request.response;
    if (status === 201) {
      expect(expected.allowed).toBe(true);
      expect(expected.code).toBeUndefined();
    } else {
      expect(expected).toMatchObject({ allowed: false, code: status, reason: body.reason, message: body.message });
    }
    expect(expected.warnings).toEqual(warnings.map(warningText));
    expect(expected.called).toHaveLength(request.webhookCalls.length);
  });
});

describe('allowPrivileged: kube-apiserver’s --allow-privileged', () => {
  it('psa-restricted-sidecar under the default false: pod validation refuses first, with the text its recording notes', () => {
    const [only] = parseSuite(suite('psa-restricted-sidecar-default-flags')).cases;
    const readme = readFileSync(path.join(fixtures, 'README.md'), 'utf8');
    expect(only!.expect).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(readme).toContain(`With the default \`--allow-privileged=false\`, pod validation refuses first: 422 \`${only!.expect.message}\``);
    expect(parseSuite(suite('psa-restricted-sidecar-default-flags')).allowPrivileged).toBeUndefined();
    expect(parseSuite(suite('psa-restricted-sidecar')).allowPrivileged).toBe(true);
  });
});

describe('admission-harness test over the recorded suites', () => {
  const cli = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      argv,
      (t) => (stdout += t),
      (t) => (stderr += t),
    );
    return { code, stdout, stderr };
  };

  it('passes every case of every file', async () => {
    const files = [...Object.values(RECORDED).flat(), 'psa-restricted-sidecar-default-flags'].map(suite);
    const { code, stdout } = await cli('test', ...files, '--json');
    const report = JSON.parse(stdout) as { passed: number; failed: number; invalidFiles: unknown[] };
    expect(report).toMatchObject({ passed: 10, failed: 0, invalidFiles: [] });
    expect(code).toBe(0);
  }, 60_000);

  it('--disable-admission-plugins turns a plugin off in every suite: without NamespaceLifecycle the terminating namespace takes the pod', async () => {
    const { code, stdout } = await cli('test', suite('namespace-terminating'), '--disable-admission-plugins', 'NamespaceLifecycle', '--json');
    const report = JSON.parse(stdout) as { cases: { name: string; failures: string[]; result: { allowed: boolean; called: string[] } }[] };
    const terminating = report.cases.find((c) => c.name === '(a) pod in terminating namespace')!;
    expect(terminating.result).toMatchObject({ allowed: true, called: ['log.mutating.test', 'log.validating.test'] });
    expect(terminating.failures[0]).toBe('allowed: expected false, got true');
    expect(code).toBe(1);
  }, 60_000);

  it('--disable-admission-plugins names only plugins the harness runs, with the nearest spelling', async () => {
    const { code, stderr } = await cli('test', suite('namespace-terminating'), '--disable-admission-plugins', 'NamespaceLifecyle');
    expect(stderr).toBe(
      'admission-harness: --disable-admission-plugins names "NamespaceLifecyle" (did you mean "NamespaceLifecycle"?), which the harness does not run\n' +
        '  hint: the built-in plugins are NamespaceLifecycle, LimitPodHardAntiAffinityTopology, LimitRanger, ServiceAccount, TaintNodesByCondition, AlwaysPullImages, PodSecurity, PodNodeSelector, Priority, DefaultTolerationSeconds, PodTolerationRestriction, EventRateLimit, ExtendedResourceToleration, DefaultStorageClass, StorageObjectInUseProtection, OwnerReferencesPermissionEnforcement, PersistentVolumeClaimResize, RuntimeClass, DefaultIngressClass, DenyServiceExternalIPs, PodTopologyLabels, ResourceQuota',
    );
    expect(code).toBe(2);
  });

  it('refuses to turn off a plugin a suite needs on, naming the file', async () => {
    const file = suite('resourcequota-sidecar');
    const { code, stdout } = await cli('test', file, '--disable-admission-plugins', 'ResourceQuota,PodSecurity');
    expect(stdout).toContain(`${file}\n  ✗ not a valid suite file:\n      ${file}: plugins.enable and --disable-admission-plugins both name "ResourceQuota"\n`);
    expect(stdout).toContain('kube-apiserver refuses to start: [ResourceQuota] in enable-admission-plugins and disable-admission-plugins overlapped');
    expect(code).toBe(1);
  }, 60_000);
});
