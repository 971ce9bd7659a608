// The ImagePolicyWebhook backend battery (`check --image-policy-config`): each check against a backend
// that fails it, over real TLS, and what kube-apiserver makes of each failure (plugin/pkg/admission/
// imagepolicy admission.go: the retries of a 5xx, then the refusal or defaultAllow).
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { BackendBatteryReport } from '../../lib/battery/backend/report';
import { IMAGE_POLICY_CHECK_IDS } from '../../lib/battery/image-policy/checks';
import { runImagePolicyBattery } from '../../lib/battery/image-policy/run';
import { connectImagePolicyBackend } from '../../lib/imagepolicy/connect';
import { listenTls } from '../../lib/net/loopback-server';
import { sharedAuthority } from '../../lib/tls';
import { app } from '../../examples/image-policy/src/app';

jest.setTimeout(120_000);

const root = path.join(__dirname, '../..');
const kubeconfig = path.join(root, 'examples/image-policy/deploy/imagepolicy.kubeconfig');
const settings = (defaultAllow: boolean) => ({
  imagePolicy: { kubeConfigFile: kubeconfig, allowTTL: 50, denyTTL: 50, retryBackoff: 500, defaultAllow },
});

type Answer = (review: { apiVersion: string; spec: { containers?: { image?: string }[] } }, n: number) => { status?: number; body: unknown } | 'never';

/** A backend answering each ImageReview as `answer` says (`never`: it keeps the request open). */
function backend(answer: Answer): (req: IncomingMessage, res: ServerResponse) => void {
  let n = 0;
  return (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const given = answer(JSON.parse(body), n++);
      if (given === 'never') return;
      const text = typeof given.body === 'string' ? given.body : JSON.stringify(given.body);
      res.writeHead(given.status ?? 200, { 'Content-Type': typeof given.body === 'string' ? 'text/plain' : 'application/json' }).end(text);
    });
  };
}

const status = (value: unknown) => ({ body: { apiVersion: 'imagepolicy.k8s.io/v1alpha1', kind: 'ImageReview', status: value } });

async function battery(
  target: Parameters<typeof connectImagePolicyBackend>[0]['target'],
  options: { defaultAllow?: boolean; timeScale?: number; only?: string[] } = {},
): Promise<BackendBatteryReport> {
  const backend = await connectImagePolicyBackend(
    { admissionConfig: settings(options.defaultAllow ?? false), target },
    { authority: await sharedAuthority(), timeScale: options.timeScale ?? 1 },
  );
  try {
    return await runImagePolicyBattery(backend, { seed: 3, ...(options.only ? { only: options.only } : {}) });
  } finally {
    await backend.close();
  }
}

const failures = (report: BackendBatteryReport, id: string) => report.results.flatMap((r) => r.checks.filter((c) => c.id === id && c.status === 'fail'));
const failedIds = (report: BackendBatteryReport) =>
  [...new Set(report.results.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => c.id)))].sort();

describe('ImagePolicyWebhook backend battery', () => {
  it('passes the example backend: every scenario answered, every denial with a reason', async () => {
    const report = await battery(app);
    expect(report.failed).toBe(0);
    expect(report.results.map((r) => r.scenario)).toEqual([
      'a pod (CREATE)',
      'several containers and initContainers, a digest and an untagged image (CREATE)',
      'a pod with *.image-policy.k8s.io/ annotations (CREATE)',
      'a pod whose image changes (UPDATE)',
      'an ephemeral container (UPDATE pods/ephemeralcontainers)',
      'an image without registry or tag (CREATE)',
      'a pod in kube-system (CREATE)',
    ]);
    const ran = new Set(report.results.flatMap((r) => r.checks.map((c) => c.id)));
    expect([...ran].sort()).toEqual([...IMAGE_POLICY_CHECK_IDS].sort());
    expect(report.results[1]?.verdict).toMatch(/^denied: registry\.example\.com\/team\/app:1\.4\.2: not pinned by digest/);
    expect(report.notes[0]).toMatch(/^defaultAllow: false: while the backend fails/);
    expect(report.notes[1]).toBe("answers are cached by the ImageReview's spec: an allow for 50 s (allowTTL), a denial for 50 s (denyTTL)");
  });

  it('sends the ImageReviews the plugin builds: containers then initContainers, filtered annotations, ephemeral containers alone', async () => {
    const seen: { spec: unknown }[] = [];
    await battery(
      backend((review) => {
        seen.push(review as { spec: unknown });
        return status({ allowed: true });
      }),
      { only: ['image-response-valid'] },
    );
    const specs = seen.map((r) => r.spec as { containers?: { image?: string }[]; annotations?: object; namespace?: string });
    expect(specs[1]?.containers?.map((c) => c.image)).toEqual([
      'registry.example.com/team/app:1.4.2',
      expect.stringMatching(/^registry\.example\.com\/team\/proxy@sha256:/),
      'registry.example.com/team/migrate:1.4.2',
      'busybox',
    ]);
    expect(specs[2]?.annotations).toEqual({ 'alpha.image-policy.k8s.io/break-glass': 'true', 'mycompany.image-policy.k8s.io/ticket': 'OPS-1234' });
    expect(specs[4]?.containers).toEqual([{ image: 'busybox:1.36' }]);
    expect(specs[6]?.namespace).toBe('kube-system');
  });

  it('image-deny-reason: a denial without status.reason', async () => {
    const report = await battery(backend(() => status({ allowed: false })));
    expect(failedIds(report)).toEqual(['image-deny-reason']);
    expect(failures(report, 'image-deny-reason')[0]?.detail).toBe(
      'denied without status.reason: users see only "one or more images rejected by webhook backend"',
    );
  });

  it('image-no-server-error: a 500 is retried five times with backoff, then the pod is refused', async () => {
    const report = await battery(backend(() => ({ status: 500, body: 'boom' })));
    expect(failedIds(report)).toEqual(['image-no-server-error', 'image-response-valid']);
    expect(failures(report, 'image-no-server-error')[0]?.detail).toMatch(
      /^HTTP 500; kube-apiserver sends it 5 times \(waiting \d+ ms, \d+ ms, \d+ ms, \d+ ms between them\), then refuses the pod: pods "[a-z0-9-]+" is forbidden: an error on the server \("boom"\) has prevented the request from succeeding$/,
    );
  });

  it('image-no-server-error: with defaultAllow the pod goes through, with the failed-open audit annotation', async () => {
    const report = await battery(
      backend(() => ({ status: 503, body: 'down' })),
      { defaultAllow: true, only: ['image-no-server-error'] },
    );
    expect(failures(report, 'image-no-server-error')[0]?.detail).toBe(
      'HTTP 503; kube-apiserver sends it 1 time, then admits the pod (defaultAllow: true) with the audit annotation imagepolicywebhook.image-policy.k8s.io/failed-open=true',
    );
    expect(report.notes[0]).toMatch(/^defaultAllow: true: while the backend fails/);
  });

  it('image-review-kind and image-response-valid: an AdmissionReview instead of an ImageReview', async () => {
    const report = await battery(backend(() => ({ body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { allowed: true } } })));
    expect(failedIds(report)).toEqual(['image-response-valid', 'image-review-kind']);
    expect(failures(report, 'image-review-kind')[0]?.detail).toBe(
      'expected imagepolicy.k8s.io/v1alpha1 ImageReview, got admission.k8s.io/v1 AdmissionReview: no kind "AdmissionReview" is registered for version "admission.k8s.io/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  it('image-review-kind: a reply without apiVersion and kind is decoded as an ImageReview, as kube-apiserver does', async () => {
    const report = await battery(
      backend(() => ({ body: { status: { allowed: true } } })),
      { only: ['image-review-kind'] },
    );
    expect(report.failed).toBe(0);
    expect(report.passed).toBe(7);
  });

  it("image-response-valid: status.allowed that is no bool, in Go's words", async () => {
    const report = await battery(
      backend(() => status({ allowed: 'yes' })),
      { only: ['image-response-valid'] },
    );
    expect(failures(report, 'image-response-valid')[0]?.detail).toMatch(
      /^json: cannot unmarshal string into Go struct field ImageReview\.status\.allowed of type bool; kube-apiserver sends it 1 time, then refuses the pod: pods "[a-z0-9-]+" is forbidden: json: cannot unmarshal/,
    );
  });

  it('image-timeout-budget: a backend that never answers hits the 30 s deadline (time-scaled)', async () => {
    const report = await battery(
      backend(() => 'never'),
      { timeScale: 0.001, only: ['image-timeout-budget'] },
    );
    expect(report.failed).toBe(7);
    expect(failures(report, 'image-timeout-budget')[0]?.detail).toMatch(
      /^Post "https:\/\/image-policy\.example\.com:8443\/review\?timeout=30s": context deadline exceeded.*; kube-apiserver sends it 1 time, then refuses the pod: /,
    );
  });

  it('image-consistent: the same ImageReview answered differently', async () => {
    const report = await battery(
      backend((_review, n) => status(n % 2 === 0 ? { allowed: true } : { allowed: false, reason: 'flaky' })),
      {
        only: ['image-consistent'],
      },
    );
    expect(report.failed).toBe(7);
    expect(failures(report, 'image-consistent')[0]?.detail).toMatch(/^answered allowed=true, then allowed=false: kube-apiserver keeps the first answer/);
  });

  it("image-tls: a certificate without the kubeconfig server's host", async () => {
    const authority = await sharedAuthority();
    const server = await listenTls(app, await authority.issueServing({ hosts: ['elsewhere.example.com'] }));
    try {
      const report = await battery({ url: `https://${server.host}:${server.port}`, ca: authority.cert }, { only: ['image-tls', 'image-response-valid'] });
      expect(failedIds(report)).toEqual(['image-response-valid', 'image-tls']);
      expect(failures(report, 'image-tls')[0]?.detail).toMatch(
        /^Post "https:\/\/image-policy\.example\.com:8443\/review\?timeout=30s": tls: failed to verify certificate: x509: certificate is valid for elsewhere\.example\.com, localhost, not image-policy\.example\.com$/,
      );
    } finally {
      await server.close();
    }
  });
});
