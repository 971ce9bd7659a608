// CEL cost limits as a real kube-apiserver v1.36.2 enforced them (test/fixtures/apiserver-cel-cost, README.md
// there): each recorded request replayed through h.admit with the recorded policy or webhook configuration.
// Request bodies elided in the recording as `<'a' x N>` are rebuilt at their length.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, review, type Harness } from '../../lib';
import type { AdmissionReview, KubeObject } from '../../lib/kube/admission';

const DIR = path.join(__dirname, '../fixtures/apiserver-cel-cost');

interface Step {
  request: { method: string; path: string; body: KubeObject };
  response: { code: number; body: Record<string, unknown> };
}
interface Recording {
  steps: Step[];
  backendReceived: { body: AdmissionReview }[];
}

const load = (name: string): Recording => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Recording;

/** The recording's `<'a' x N>` placeholders as the strings that were sent. */
function expand<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) => {
    const elided = typeof v === 'string' ? /^<'(.)' x (\d+)>$/.exec(v) : null;
    return elided ? elided[1]!.repeat(Number(elided[2])) : v;
  }) as T;
}

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

const isConfiguration = (step: Step) => step.request.path.startsWith('/apis/admissionregistration.k8s.io/');
const isWrite = (step: Step) => step.request.path.startsWith('/api/v1/namespaces/');

/** A webhook backend that allows everything and remembers the names it was asked about. */
function allowingBackend(asked: string[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const sent = JSON.parse(body) as AdmissionReview;
      asked.push(sent.request?.name ?? '');
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: sent.apiVersion, kind: 'AdmissionReview', response: { uid: sent.request?.uid, allowed: true } }));
    });
  };
}

async function replay(name: string, asked?: string[]) {
  const recording = load(name);
  const manifests = recording.steps.filter(isConfiguration).map((step) => step.request.body);
  const h = await createHarness({
    seed: 11,
    manifests: manifests as never[],
    namespaces: [{ name: 'o4-cel' }],
    ...(asked ? { target: allowingBackend(asked) } : {}),
  });
  harnesses.push(h);
  const results = [];
  for (const step of recording.steps.filter(isWrite)) {
    const object = expand(step.request.body);
    const result = await h.admit(review.create(object, { via: 'api', dryRun: step.request.path.includes('dryRun=All') }));
    results.push({ step, result });
  }
  return { recording, results };
}

describe('CEL cost limits at run time, as kube-apiserver v1.36.2 enforces them (apiserver pkg/cel/limits, plugin/cel filter.go)', () => {
  it.each(['vap-runtime-cost-fail', 'vap-runtime-total-budget'])(
    '%s: past the per-call limit or the policy budget, failurePolicy Fail denies with kube’s 422 text',
    async (name) => {
      const { results } = await replay(name);
      for (const { step, result } of results) {
        if (step.response.code === 201) expect(result).toBeAllowed();
        else expect(result.status).toEqual(step.response.body);
      }
      expect(results.some(({ step }) => step.response.code === 422)).toBe(true);
    },
  );

  it('vap-runtime-cost-ignore: under failurePolicy Ignore the cancelled expression admits', async () => {
    const { results } = await replay('vap-runtime-cost-ignore');
    for (const { step, result } of results) {
      expect(step.response.code).toBe(201);
      expect(result).toBeAllowed();
    }
  });

  it('webhook-matchcondition-cost-fail: a matchCondition past the limit refuses with 403 and the webhook is not called', async () => {
    const asked: string[] = [];
    const { recording, results } = await replay('webhook-matchcondition-cost-fail', asked);
    for (const { step, result } of results) {
      if (step.response.code === 201) expect(result).toBeAllowed();
      else expect(result.status).toEqual(step.response.body);
    }
    expect(asked).toEqual(recording.backendReceived.map((r) => r.body.request?.name));
  });

  it('webhook-matchcondition-cost-ignore: under failurePolicy Ignore the webhook is skipped and the request admitted', async () => {
    const asked: string[] = [];
    const { recording, results } = await replay('webhook-matchcondition-cost-ignore', asked);
    for (const { step, result } of results) {
      expect(step.response.code).toBe(201);
      expect(result).toBeAllowed();
    }
    expect(asked).toEqual(recording.backendReceived.map((r) => r.body.request?.name));
  });
});
