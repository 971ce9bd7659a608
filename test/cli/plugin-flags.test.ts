// `test --enable-admission-plugins` and `--admission-control-config-file`: every suite's cluster runs the
// off-by-default plugins named too, configured by the file; a suite written here (the refusal recorded in
// test/plugins/fixtures/apiserver-plugins-more/denyserviceexternalips.json and podnodeselector-mutation.json).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../lib/cli/run';

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

const dir = mkdtempSync(path.join(tmpdir(), 'plugin-flags-'));
const suite = path.join(dir, 'plugins.suite.yaml');
writeFileSync(
  suite,
  `apiVersion: admission-harness/v1alpha1
kind: Suite
namespaces: [{name: o4-dsx}]
cases:
  - name: a Service with external IPs is refused
    request:
      operation: CREATE
      kind: {group: "", version: v1, kind: Service}
      resource: {group: "", version: v1, resource: services}
      namespace: o4-dsx
      name: ext
      object: {apiVersion: v1, kind: Service, metadata: {name: ext, namespace: o4-dsx}, spec: {ports: [{port: 80}], selector: {app: x}, externalIPs: [192.0.2.10]}}
    expect:
      allowed: false
      code: 403
      message: 'services "ext" is forbidden: Use of external IPs is denied by admission control'
  - name: a pod gets the cluster's default node selector
    request:
      operation: CREATE
      kind: {group: "", version: v1, kind: Pod}
      resource: {group: "", version: v1, resource: pods}
      namespace: o4-dsx
      name: web
      object: {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: o4-dsx}, spec: {nodeSelector: {env: other}, containers: [{name: c, image: busybox:1.36}]}}
    expect:
      allowed: false
      code: 403
      message: 'pods "web" is forbidden: pod node label selector conflicts with its namespace node label selector'
`,
);
const config = path.join(dir, 'admission.yaml');
writeFileSync(
  config,
  'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodNodeSelector\n  configuration:\n    podNodeSelectorPluginConfig:\n      clusterDefaultNodeSelector: env=default\n',
);

it('test runs every suite with the plugins --enable-admission-plugins names, configured by --admission-control-config-file', async () => {
  const without = await cli('test', suite, '--json');
  expect(without.code).toBe(1);
  const result = await cli(
    'test',
    suite,
    '--json',
    '--enable-admission-plugins',
    'DenyServiceExternalIPs,PodNodeSelector',
    '--admission-control-config-file',
    config,
  );
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});

it('refuses a plugin the harness does not run, EventRateLimit without its Configuration, and a configuration file it cannot read (exit 2)', async () => {
  const unknown = await cli('test', suite, '--enable-admission-plugins', 'NodeRestriction');
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('--enable-admission-plugins names "NodeRestriction"');
  // EventRateLimit without its Configuration: kube-apiserver does not start.
  const unconfigured = await cli('test', suite, '--enable-admission-plugins', 'EventRateLimit');
  expect(unconfigured.code).toBe(2);
  expect(unconfigured.stderr).toContain(
    `--admission-control-config-file: couldn't init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty`,
  );
  const missing = await cli('test', suite, '--enable-admission-plugins', 'PodNodeSelector', '--admission-control-config-file', path.join(dir, 'none.yaml'));
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain(`cannot read ${path.join(dir, 'none.yaml')}`);
  const check = await cli('check', '--manifests', suite, '--url', 'https://127.0.0.1:1/', '--admission-control-config-file', suite);
  expect(check.code).toBe(2);
  expect(check.stderr).toContain(`${suite}: kind is "Suite", not AdmissionConfiguration`);
});
