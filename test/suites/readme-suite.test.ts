// The suite example of docs/suites.md, run as written: the configuration file it names is written beside it, with
// the mutating webhook its `webhooks` stubs. Its request leaves the name and namespace to the object, as
// a create does (endpoints/handlers/create.go takes the name from the object).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSuiteFile } from '../../scenarios';

const page = readFileSync(path.join(__dirname, '../../docs/suites.md'), 'utf8');
const example = /# Suite files[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1];

const WEBHOOKS = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: mesh}
webhooks:
  - name: sidecar.mesh.io
    clientConfig: {service: {namespace: mesh-system, name: injector, path: /inject}}
    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [pods]}]
    namespaceSelector: {matchLabels: {env: prod}}
    sideEffects: None
    admissionReviewVersions: [v1]
`;

describe("docs/suites.md's suite example", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ah-readme-suite-'));
    mkdirSync(path.join(dir, 'deploy'));
    mkdirSync(path.join(dir, 'suites'));
    writeFileSync(path.join(dir, 'deploy/webhooks.yaml'), WEBHOOKS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes as written', async () => {
    expect(example).toBeDefined();
    const file = path.join(dir, 'suites/readme.suite.yaml');
    writeFileSync(file, example!);
    const report = await runSuiteFile(file);
    expect(report.cases.map((c) => [c.name, c.verdict, c.failures])).toEqual([["a pod in prod gets the sidecar's label and is allowed", 'passed', []]]);
  });

  it('sends the webhook the name and namespace of the object', async () => {
    const file = path.join(dir, 'suites/readme-sent.suite.yaml');
    const sent = '\n    expect: {allowed: true, sentRequests: [{webhook: sidecar.mesh.io, request: {name: web, namespace: prod, operation: CREATE}}]}\n';
    const withSent = example!.replace(/\n {4}expect: .*\n/, sent);
    expect(withSent).toContain('sentRequests');
    writeFileSync(file, withSent);
    const report = await runSuiteFile(file);
    expect(report.cases.map((c) => c.failures)).toEqual([[]]);
  });
});
