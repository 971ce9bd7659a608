import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSuite, runSuiteFile } from '../../scenarios';
import { testCommand } from '../../lib/cli/test';

const basic = path.join(__dirname, 'basic.suite.yaml');

// No manifests, no configurations: pod validation answers (kube's text for a pod without containers).
const BARE_SUITE = `apiVersion: admission-harness/v1alpha1
kind: Suite
seed: 5
namespaces: [{name: shop}]
cases:
  - name: a pod with no containers is invalid
    request:
      operation: CREATE
      kind: {group: "", version: v1, kind: Pod}
      resource: {group: "", version: v1, resource: pods}
      namespace: shop
      name: web
      object: {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: shop}, spec: {containers: []}}
    expect:
      code: 422
      message: 'Pod "web" is invalid: spec.containers: Required value'
`;

// The suites as Jest tests, the way users run their own.
runSuite(basic);
// Policies only, no webhook, params among the suite's objects.
runSuite(path.join(__dirname, 'policies.suite.yaml'));

describe('admission-harness test', () => {
  it('reports cases, failures and the trace of a failing case', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    try {
      const broken = path.join(dir, 'broken.suite.yaml');
      // The stub now denies with 422 where the case expects 403.
      writeFileSync(broken, readFileSync(basic, 'utf8').replace('code: 403', 'code: 422'));
      let text = '';
      const junit = path.join(dir, 'junit.xml');
      const code = await testCommand({ files: [broken], json: true, junit }, (t) => (text += t));
      expect(code).toBe(1);
      const report = JSON.parse(text) as {
        passed: number;
        failed: number;
        cases: { name: string; passed: boolean; failures: string[]; result: { code?: number } }[];
      };
      expect(report).toMatchObject({ passed: 2, failed: 1 });
      const failing = report.cases.find((c) => !c.passed)!;
      expect(failing.name).toBe('without the peer, the policy denies');
      expect(failing.failures[0]).toBe('code: expected 403, got 422');
      expect(failing.failures.at(-1)).toMatch(/^trace:\nCREATE pods prod\/web/);
      expect(readFileSync(junit, 'utf8')).toContain(`<testcase classname="${broken}" name="without the peer, the policy denies"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a suite with no configurations at all meets the built-in plugins and the API alone', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    try {
      const bare = path.join(dir, 'bare.suite.yaml');
      writeFileSync(bare, BARE_SUITE);
      const report = await runSuiteFile(bare);
      expect(report.cases.map((c) => [c.name, c.verdict, c.failures])).toEqual([['a pod with no containers is invalid', 'passed', []]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each<[string, (text: string) => string, string]>([
    [
      'a plugin it does not run, with the nearest spelling',
      (t) => t.replace('kind: Suite', 'kind: Suite\nplugins: {disable: [PodSecurty]}'),
      'plugins.disable[0]: Unsupported value: "PodSecurty" (did you mean "PodSecurity"?): the built-in plugins the harness runs are NamespaceLifecycle, ',
    ],
    [
      'a plugin both on and off',
      (t) => t.replace('kind: Suite', 'kind: Suite\nplugins: {disable: [PodSecurity, LimitRanger], enable: [PodSecurity]}'),
      'plugins: enable and disable both name "PodSecurity": a plugin is on or off, not both',
    ],
    [
      'EventRateLimit, whose Configuration a suite cannot give',
      (t) => t.replace('kind: Suite', 'kind: Suite\nplugins: {enable: [AlwaysPullImages, EventRateLimit]}'),
      'plugins.enable[1]: EventRateLimit needs its Configuration, which a suite cannot give (kube-apiserver would not start: couldn\'t init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty)',
    ],
    [
      'an unknown key of plugins',
      (t) => t.replace('kind: Suite', 'kind: Suite\nplugins: {disabled: [PodSecurity]}'),
      'plugins.disabled: unknown field "disabled" (did you mean "disable"?); plugins has disable, enable',
    ],
    [
      'allowPrivileged that is not a boolean',
      (t) => t.replace('kind: Suite', 'kind: Suite\nallowPrivileged: "yes"'),
      'allowPrivileged: Invalid value: "yes": must be true or false',
    ],
    [
      'a PodSecurity level kube does not know',
      (t) => t.replace('kind: Suite', 'kind: Suite\npodSecurity: {defaults: {enforce: strict}}'),
      'podSecurity.defaults.enforce: Invalid value: must be one of privileged, baseline, restricted',
    ],
    [
      'sentRequests written as a map instead of a list',
      (t) => t.replace('      code: 422\n', '      code: 422\n      sentRequests: {pod-policy: {operation: CREATE}}\n'),
      'cases[0].expect.sentRequests: Invalid value: must be an array, got an object',
    ],
    [
      'a sentRequests entry without its request',
      (t) => t.replace('      code: 422\n', '      code: 422\n      sentRequests: [{webhook: pod-policy}]\n'),
      'cases[0].expect.sentRequests[0].request: Required value',
    ],
    ['a code written as text', (t) => t.replace('code: 422', 'code: "422"'), 'cases[0].expect.code: Invalid value: must be an integer, got a string'],
    [
      'a call count below zero',
      (t) => t.replace('      code: 422\n', '      code: 422\n      callCounts: {pod-policy: -1}\n'),
      'cases[0].expect.callCounts.pod-policy: Invalid value: must be at least 0',
    ],
    [
      'an unknown PodSecurity exemption',
      (t) => t.replace('kind: Suite', 'kind: Suite\npodSecurity: {exemptions: {namespace: [shop]}}'),
      'podSecurity.exemptions.namespace: unknown field "namespace" (did you mean "namespaces"?); podSecurity.exemptions has usernames, namespaces, runtimeClasses',
    ],
  ])('refuses %s, naming file and field', async (_name, edit, message) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    try {
      const file = path.join(dir, 'bad.suite.yaml');
      writeFileSync(file, edit(BARE_SUITE));
      await expect(runSuiteFile(file)).rejects.toThrow(`${file} ${message}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('podSecurity configures PodSecurity for the suite: its defaults judge unlabelled namespaces, its exemptions skip them', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    // A pod valid for the API, running as root: restricted refuses it.
    const rootPod = BARE_SUITE.replace('spec: {containers: []}', 'spec: {containers: [{name: app, image: "registry.example.com/app:1.0"}]}').replace(
      '- name: a pod with no containers is invalid',
      '- name: a root pod',
    );
    try {
      const file = path.join(dir, 'restricted.suite.yaml');
      writeFileSync(file, rootPod.replace('kind: Suite', 'kind: Suite\npodSecurity: {defaults: {enforce: restricted}}'));
      const [refused] = (await runSuiteFile(file)).cases;
      expect(refused!.result.message).toMatch(
        /^pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "app" must set securityContext.allowPrivilegeEscalation=false\)/,
      );
      writeFileSync(file, rootPod.replace('kind: Suite', 'kind: Suite\npodSecurity: {defaults: {enforce: restricted}, exemptions: {namespaces: [shop]}}'));
      const [exempt] = (await runSuiteFile(file)).cases;
      expect(exempt!.result).toMatchObject({ allowed: true, warnings: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('seeds objects in any order, and still refuses an object whose namespace is never defined', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    const account = (namespace: string) => `  - {apiVersion: v1, kind: ServiceAccount, metadata: {name: builder, namespace: ${namespace}}}\n`;
    const namespace = '  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}\n';
    try {
      const file = path.join(dir, 'objects.suite.yaml');
      writeFileSync(file, BARE_SUITE.replace('cases:', `objects:\n${account('shop')}${namespace}cases:`));
      expect((await runSuiteFile(file)).passed).toBe(1);
      writeFileSync(file, BARE_SUITE.replace('cases:', `objects:\n${account('elsewhere')}${namespace}cases:`));
      await expect(runSuiteFile(file)).rejects.toThrow(`${file}: objects[0] (ServiceAccount "elsewhere/builder"): namespaces "elsewhere" not found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects unknown fields, naming file and path', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    try {
      const typo = path.join(dir, 'typo.suite.yaml');
      writeFileSync(typo, readFileSync(basic, 'utf8').replace('callCounts:', 'callCount:'));
      await expect(runSuiteFile(typo)).rejects.toThrow(`${typo} cases[1].expect.callCount: unknown field`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
