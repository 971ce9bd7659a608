// The zoo (issue 7, item 5): one deliberately broken webhook per check id, each otherwise correct, and
// proof that `admission-harness check` reports it under that id with kube-apiserver's words, while a
// correct webhook and the pod-defaults example pass without a single failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { check } from '../../lib/cli/check';
import type { TargetArgs } from '../../lib/cli/target';
import { CertificateAuthority, serviceDnsNames, type KeyPair } from '../../lib/tls';
import { CHECK_IDS } from '../../lib/battery/battery';
import type { CheckId } from '../../lib/battery/checks';
import correct from '../webhooks/zoo/correct';

const root = path.join(__dirname, '../..');
const zoo = path.join(root, 'test/webhooks/zoo');
const SEED = 7;

interface ReportedCheck {
  id: CheckId;
  webhook: string;
  scenario: string;
  status: 'pass' | 'fail';
  detail?: string;
}

interface JsonReport {
  seed: number;
  passed: number;
  failed: number;
  checks: ReportedCheck[];
  skipped: { webhook: string; reason: string }[];
}

async function runCheck(manifest: string, target: TargetArgs): Promise<{ code: number; report: JsonReport }> {
  let text = '';
  const code = await check({ manifests: [manifest], ...target, json: true, failFast: false, seed: SEED }, (t) => (text += t));
  return { code, report: JSON.parse(text) as JsonReport };
}

const failedIds = (report: JsonReport): CheckId[] => [...new Set(report.checks.filter((c) => c.status === 'fail').map((c) => c.id))].sort();

// --- TLS: a correct webhook served by the test behind a bad certificate, checked through --url and --ca.

let tmp: string;
let caFile: string;
const servers: https.Server[] = [];
const urls: Record<'otherCa' | 'expired' | 'wrongSan', string> = { otherCa: '', expired: '', wrongSan: '' };

async function serve(pair: KeyPair): Promise<string> {
  const server = https.createServer({ key: pair.key, cert: pair.cert }, correct);
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'zoo-test-'));
  const [trusted, other] = await Promise.all([CertificateAuthority.create(), CertificateAuthority.create()]);
  caFile = path.join(tmp, 'ca.crt');
  writeFileSync(caFile, trusted.cert);
  const names = serviceDnsNames('tls', 'zoo');
  const day = 24 * 60 * 60 * 1000;
  const [fromOther, expired, wrongSan] = await Promise.all([
    other.issueServing({ hosts: names }),
    trusted.issueServing({ hosts: names, notBefore: new Date(Date.now() - 30 * day), notAfter: new Date(Date.now() - day) }),
    // Issued for the service's short names only: kube-apiserver verifies name.namespace.svc.
    trusted.issueServing({ hosts: ['tls', 'tls.zoo'], omitLoopback: true }),
  ]);
  [urls.otherCa, urls.expired, urls.wrongSan] = await Promise.all([serve(fromOther), serve(expired), serve(wrongSan)]);
});

afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// --- The zoo.

interface ZooCase {
  /** The check the webhook breaks. */
  breaks: CheckId;
  /** Its module and manifest in test/webhooks/zoo/ (`<name>.ts`, `<name>.yaml`). */
  name: string;
  /** How `check` reaches it; `--module test/webhooks/zoo/<name>.ts` by default. */
  target?: () => TargetArgs;
  /** The other checks that fail with it, as a consequence of the same fault. */
  also: CheckId[];
  /** Every failing detail of `breaks`. */
  detail: RegExp;
  /** Every scenario in which `breaks` fails. */
  scenarios: RegExp;
  /** kube-apiserver's own text, where response-valid fails with it. */
  kube?: RegExp;
}

const POST = (service: string, timeout = '10s') => `failed to call webhook: Post "https://${service}.zoo.svc:443/validate?timeout=${timeout}": `;
const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const exactly = (text: string) => new RegExp(`^${quote(text)}$`);
const calling = (name: string, text: string) => new RegExp(`^${quote(`failed calling webhook "${name}.zoo.example.com": ${text}`)}$`);
const CREATE_PODS = /^CREATE pods( \((dryRun|image :latest|two containers|restricted)\))?$/;

const CASES: ZooCase[] = [
  {
    breaks: 'tls-chain',
    name: 'tls (certificate from another CA)',
    target: () => ({ url: urls.otherCa, ca: caFile }),
    also: ['response-valid'],
    detail: exactly(`${POST('tls')}tls: failed to verify certificate: x509: certificate signed by unknown authority`),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'tls-chain',
    name: 'tls (expired certificate)',
    target: () => ({ url: urls.expired, ca: caFile }),
    also: ['response-valid'],
    detail: exactly(`${POST('tls')}tls: failed to verify certificate: x509: certificate has expired or is not yet valid`),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'tls-san',
    name: 'tls (certificate without name.namespace.svc)',
    target: () => ({ url: urls.wrongSan, ca: caFile }),
    also: ['response-valid'],
    detail: exactly(`${POST('tls')}tls: failed to verify certificate: x509: certificate is valid for tls, tls.zoo, not tls.zoo.svc`),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'response-valid',
    name: 'no-response',
    also: [],
    detail: calling('no-response', 'received invalid webhook response: webhook response was absent'),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'uid-echo',
    name: 'uid-from-review',
    also: ['response-valid'],
    detail: /^expected "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", got ""$/,
    scenarios: CREATE_PODS,
    kube: /^failed calling webhook "uid-from-review\.zoo\.example\.com": received invalid webhook response: expected response\.uid="[0-9a-f-]{36}", got ""$/,
  },
  {
    breaks: 'review-version',
    name: 'v1beta1-reply',
    also: ['response-valid'],
    detail: exactly('expected admission.k8s.io/v1 AdmissionReview, got admission.k8s.io/v1beta1 AdmissionReview'),
    scenarios: CREATE_PODS,
    kube: calling('v1beta1-reply', 'failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion'),
  },
  {
    breaks: 'review-version',
    name: 'no-kind',
    also: ['response-valid'],
    detail: exactly('expected admission.k8s.io/v1 AdmissionReview, got admission.k8s.io/v1 (no kind)'),
    scenarios: CREATE_PODS,
    kube: calling(
      'no-kind',
      'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=',
    ),
  },
  {
    breaks: 'patch-type',
    name: 'validating-patch',
    also: ['response-valid'],
    detail: exactly('a validating webhook returned a patch'),
    scenarios: CREATE_PODS,
    kube: calling('validating-patch', 'received invalid webhook response: validating webhook may not return response.patch'),
  },
  {
    breaks: 'patch-type',
    name: 'no-patch-type',
    also: ['response-valid'],
    detail: calling('no-patch-type', 'received invalid webhook response: webhook returned response.patch but not response.patchType'),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'patch-applies',
    name: 'patch-missing-label',
    also: [],
    detail: exactly(
      "Internal error occurred: error in remove for path: '/metadata/labels/zoo.example.com~1legacy': Unable to remove nonexistent key: zoo.example.com/legacy: missing value",
    ),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'patch-applies',
    name: 'wrong-type',
    also: [],
    detail: exactly('Internal error occurred: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'patch-on-delete',
    name: 'patch-on-delete',
    also: [],
    detail: exactly('admission webhook "patch-on-delete.zoo.example.com" attempted to modify the object, which is not supported for this operation'),
    scenarios: /^DELETE pods$/,
  },
  {
    breaks: 'deny-status',
    name: 'deny-no-message',
    also: [],
    detail: exactly('denied without status.message: users see "denied the request without explanation"'),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'deny-status',
    name: 'deny-code-200',
    also: [],
    detail: exactly('status.code 200 (kube-apiserver turns it into 400)'),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'no-server-error',
    name: 'server-error',
    also: ['response-valid'],
    detail:
      /^HTTP 500: failed calling webhook "server-error\.zoo\.example\.com": failed to call webhook: an error on the server \("TypeError: [^"]+"\) has prevented the request from succeeding$/,
    scenarios: /^CREATE services( \(dryRun\))?$/,
  },
  {
    breaks: 'timeout-budget',
    name: 'slow',
    also: ['response-valid'],
    detail: exactly(`${POST('slow', '1s')}context deadline exceeded`),
    scenarios: /^CREATE pods \(two containers\)$/,
  },
  {
    breaks: 'connect-handled',
    name: 'connect-crash',
    also: ['response-valid'],
    detail: calling('connect-crash', `${POST('connect-crash')}EOF`),
    scenarios: /^CONNECT (pods\/(exec|attach|portforward|proxy)|services\/proxy)$/,
  },
  {
    breaks: 'delete-handled',
    name: 'delete-crash',
    also: ['response-valid'],
    detail: calling('delete-crash', `${POST('delete-crash')}EOF`),
    scenarios: /^DELETE \w+$/,
  },
  {
    breaks: 'delete-handled',
    name: 'python-delete-crash (Python, --command)',
    target: () => ({ command: `python3 ${path.join(zoo, 'python-delete-crash.py')} {port}` }),
    also: ['response-valid'],
    detail: calling('python-delete-crash', `${POST('python-delete-crash')}EOF`),
    scenarios: /^DELETE pods$/,
  },
  {
    breaks: 'subresource-handled',
    name: 'subresource-empty',
    also: ['response-valid'],
    detail: calling('subresource-empty', 'failed to call webhook: 0-length response with status code: 200 and content type: application/json'),
    scenarios: /^UPDATE (pods\/status|deployments\/(status|scale))$/,
  },
  {
    breaks: 'idempotent-reinvocation',
    name: 'sidecar-append',
    // A CREATE reinvoked with the webhook's output and a CREATE of an object that already carries it are the same request.
    // …and reinvoked after another webhook's change, its second sidecar is a duplicate name the API refuses.
    also: ['idempotent-preset', 'object-valid'],
    detail: exactly(
      'reinvoked with its own output, the webhook changed the object again: [{"op":"add","path":"/spec/containers/-","value":{"name":"zoo-proxy","image":"ghcr.io/zoo/proxy:v1.0.0","securityContext":{"allowPrivilegeEscalation":false,"capabilities":{"drop":["ALL"]}}}}]',
    ),
    scenarios: /^CREATE pods( \((image :latest|two containers|restricted)\))?$/,
  },
  {
    breaks: 'idempotent-reinvocation',
    name: 'revision-counter',
    also: [],
    detail:
      /^reinvoked with its own output, the webhook changed the object again: \[\{"op":"add","path":"\/metadata\/annotations\/zoo\.example\.com~1revision","value":"\d+"\}\]$/,
    scenarios: /^UPDATE pods$/,
  },
  {
    breaks: 'idempotent-preset',
    name: 'counter-name',
    also: ['idempotent-reinvocation'],
    detail:
      /^given a new object with its changes already made, the webhook changed the object again: \[\{"op":"add","path":"\/spec\/containers\/-","value":\{"name":"zoo-agent-\d+","image":"ghcr\.io\/zoo\/agent:v2\.1\.0","securityContext":\{"allowPrivilegeEscalation":false,"capabilities":\{"drop":\["ALL"\]\}\}\}\}\]$/,
    scenarios: /^CREATE pods( \((image :latest|two containers|restricted)\))?$/,
  },
  {
    breaks: 'object-valid',
    name: 'invalid-label',
    also: [],
    detail: new RegExp(
      `^${quote('the API refuses the patched object: 422 Pod "')}[a-z0-9-]+${quote(
        `" is invalid: metadata.labels: Invalid value: "platform team": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      )}$`,
    ),
    scenarios: CREATE_PODS,
  },
  {
    breaks: 'pod-security',
    name: 'sidecar-unrestricted',
    also: [],
    detail: exactly(
      'the request\'s pod was within PodSecurity "restricted:latest"; patched, it violates: allowPrivilegeEscalation != false (container "zoo-logger" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "zoo-logger" must set securityContext.capabilities.drop=["ALL"]); it passes at baseline',
    ),
    // The pods the builders make are restricted already, as is the one built so.
    scenarios: /^CREATE pods( \((restricted|dryRun)\))?$/,
  },
  {
    breaks: 'delete-repeatable',
    name: 'delete-once',
    also: [],
    detail: exactly('storage attempt 2 of the same DELETE was denied, the first allowed: kube-apiserver admits one pod DELETE up to 3 times'),
    scenarios: /^DELETE pods$/,
  },
  {
    breaks: 'dryrun-honored',
    name: 'dryrun-deny',
    also: [],
    detail: exactly('dryRun was denied but the same request without dryRun was allowed: kubectl --dry-run=server would mislead'),
    scenarios: /^(CREATE|UPDATE) pods \(dryRun\)$/,
  },
];

describe('the zoo of broken webhooks', () => {
  it('has a webhook for every check id', () => {
    expect(new Set(CASES.map((c) => c.breaks))).toEqual(new Set(CHECK_IDS));
  });

  it.each(CASES.map((c) => [`${c.breaks} · ${c.name}`, c] as const))('%s', async (_title, zooCase) => {
    const file = zooCase.name.split(' ')[0] as string;
    const target = zooCase.target?.() ?? { module: path.join(zoo, `${file}.ts`) };
    const { code, report } = await runCheck(path.join(zoo, `${file}.yaml`), target);

    expect(code).toBe(1);
    expect(report.skipped).toEqual([]);
    const failed = failedIds(report);
    // The intended check fails, with the consequences named; nothing else does.
    expect(failed).toEqual(expect.arrayContaining([zooCase.breaks, ...zooCase.also]));
    expect(failed.filter((id) => id !== zooCase.breaks && !zooCase.also.includes(id))).toEqual([]);

    const failures = report.checks.filter((c) => c.id === zooCase.breaks && c.status === 'fail');
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) {
      expect(failure.webhook).toBe(`${file}.zoo.example.com`);
      expect(failure.scenario).toMatch(zooCase.scenarios);
      expect(failure.detail).toMatch(zooCase.detail);
    }
    if (zooCase.kube) {
      const kube = report.checks.filter((c) => c.id === 'response-valid' && c.status === 'fail');
      expect(kube.length).toBeGreaterThan(0);
      for (const failure of kube) expect(failure.detail).toMatch(zooCase.kube);
    }
  });

  it('names the check and its detail in the readable report too', async () => {
    let text = '';
    const code = await check(
      { manifests: [path.join(zoo, 'patch-on-delete.yaml')], module: path.join(zoo, 'patch-on-delete.ts'), json: false, failFast: false, seed: SEED },
      (t) => (text += t),
    );
    expect(code).toBe(1);
    expect(text).toMatch(/^ {2}✗ DELETE pods — allowed, patch of 1 op · \d+ ms$/m);
    expect(text).toContain(
      '      ✗ patch-on-delete: admission webhook "patch-on-delete.zoo.example.com" attempted to modify the object, which is not supported for this operation',
    );
    expect(text).toMatch(/^checks: \d+ passed, 1 failed$/m);
    // The patch decoded; its base64 only on request.
    const patch = '[{"op":"add","path":"/metadata/annotations","value":{"zoo.example.com/deleted-by":"zoo"}}]';
    expect(text).toContain(`        Patch:    ${patch}`);
    expect(text).toMatch(/^ {8}Response: \{.*"patch":"\(120 characters of base64: decoded below\)","patchType":"JSONPatch"\}$/m);
    let verbose = '';
    await check(
      {
        manifests: [path.join(zoo, 'patch-on-delete.yaml')],
        module: path.join(zoo, 'patch-on-delete.ts'),
        json: false,
        failFast: false,
        seed: SEED,
        verbose: true,
      },
      (t) => (verbose += t),
    );
    expect(verbose).toContain(`"patch":"${Buffer.from(patch).toString('base64')}"`);
  });

  it('gives a failed check the request, the response and the decoded patch in --json', async () => {
    let text = '';
    await check(
      { manifests: [path.join(zoo, 'patch-on-delete.yaml')], module: path.join(zoo, 'patch-on-delete.ts'), json: true, failFast: false, seed: SEED },
      (t) => (text += t),
    );
    const failed = (JSON.parse(text) as { checks: Record<string, unknown>[] }).checks.find((c) => c.status === 'fail');
    expect(failed).toEqual({
      id: 'patch-on-delete',
      webhook: 'patch-on-delete.zoo.example.com',
      scenario: 'DELETE pods',
      status: 'fail',
      detail: 'admission webhook "patch-on-delete.zoo.example.com" attempted to modify the object, which is not supported for this operation',
      request: expect.stringMatching(/^DELETE pods default\/\S+ → patch-on-delete\.zoo\.example\.com \[admission\.k8s\.io\/v1\] · seed 7 /),
      url: 'https://patch-on-delete.zoo.svc:443/mutate?timeout=10s',
      httpStatus: 200,
      response: expect.objectContaining({ allowed: true, patchType: 'JSONPatch', patch: expect.any(String) }),
      patch: [{ op: 'add', path: '/metadata/annotations', value: { 'zoo.example.com/deleted-by': 'zoo' } }],
    });
  });
});

describe('no false positives', () => {
  it('passes the pod-defaults example', async () => {
    const { code, report } = await runCheck(path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml'), {
      module: path.join(root, 'examples/pod-defaults/src/app.ts'),
    });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it('passes a correct webhook on every request kube-apiserver sends, under every check id', async () => {
    const { code, report } = await runCheck(path.join(zoo, 'correct.yaml'), { module: path.join(zoo, 'correct.ts') });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.skipped).toEqual([]);
    expect(code).toBe(0);
    // Each check ran, and passed, somewhere: patches, reinvocations, denials, dryRun twins, CONNECT, DELETE, subresources.
    expect(new Set(report.checks.map((c) => c.id))).toEqual(new Set(CHECK_IDS));
    const scenarios = new Set(report.checks.map((c) => c.scenario));
    for (const title of ['CONNECT pods/exec', 'DELETE pods', 'UPDATE deployments/scale', 'CREATE pods (dryRun)', 'CREATE pods [v1beta1]'])
      expect(scenarios).toContain(title);
  });
});
