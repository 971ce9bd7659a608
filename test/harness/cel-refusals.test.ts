// Manifests kube-apiserver refuses on create for their CEL: createHarness throws, as `kubectl apply`
// fails, unless `celRefusals: 'leave-out'` builds the cluster where those objects were never created
// (a refused webhook configuration is not there, a refused policy does not run, a refused CRD is not
// served) and h.lint() lists the refusals as `admission-harness lint` does. The refused CRD is the one of
// static-cost-estimate (recorded on a real kube-apiserver v1.36.2, test/fixtures/apiserver-cel-cost).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rmSync } from 'node:fs';
import { createHarness, HarnessError, objects, review, type Harness, type HarnessOptions } from '../../lib';
import { lintCommand } from '../../lib/cli/lint';
import { ACCEPTED_WEBHOOK, COSTLY, COSTLY_CAUSES, COSTLY_CRD, manifestFile, MIXED, REFUSED_POLICY, REFUSED_WEBHOOK } from '../lint/refused-manifests';

/** The webhooks' server: records the path of every call, and denies it. */
function denyingTarget(paths: string[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const path = req.url?.split('?')[0] ?? '';
      paths.push(path);
      const { apiVersion, request } = JSON.parse(body) as { apiVersion: string; request: { uid: string } };
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          apiVersion,
          kind: 'AdmissionReview',
          response: { uid: request.uid, allowed: false, status: { code: 403, message: `denied at ${path}` } },
        }),
      );
    });
  };
}

async function thrown(options: HarnessOptions): Promise<HarnessError> {
  const error = await createHarness({ seed: 5, ...options }).then(
    async (h) => {
      await h.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HarnessError);
  return error as HarnessError;
}

const HINT = '\n  hint: the API server would reject these objects on create; fix the expressions named';

describe('createHarness refuses such manifests by default, with kube’s texts', () => {
  it('a matchCondition that does not compile: the same error as before, naming the object and field', async () => {
    const error = await thrown({ manifests: [REFUSED_WEBHOOK], target: denyingTarget([]) });
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.message).toBe(
      `invalid webhook configuration:\n  manifests[0] (ValidatingWebhookConfiguration "refused-webhook") webhooks[0].matchConditions[0].expression: Invalid value: "timestamp('bad') < timestamp(0)": compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('bad') < timestamp(0)\n | ..........^${HINT}`,
    );
  });

  it('a policy expression that does not compile: the same error as before', async () => {
    const error = await thrown({ manifests: [REFUSED_POLICY] });
    expect(error.message).toBe(
      `invalid admission policy:\n  manifests[0] (ValidatingAdmissionPolicy "refused-policy") spec.validations[0].expression: Invalid value: "object.spec.x.matches(')')": compilation failed: ERROR: <input>:1:23: invalid matches argument\n | object.spec.x.matches(')')\n | ......................^\n  manifests[0] (ValidatingAdmissionPolicy "refused-policy") spec.validations[1].expression: Invalid value: "duration('1d') > duration('0')": compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1d') > duration('0')\n | .........^${HINT}`,
    );
  });

  it('every refusal at once, a section per kind of object, the CRD’s cost refusal with the recorded text', async () => {
    const error = await thrown({ manifests: MIXED, target: denyingTarget([]), celRefusals: 'throw' });
    const sections = error.message.split('\n').filter((line) => /^invalid /.test(line));
    expect(sections).toEqual(['invalid CustomResourceDefinition:', 'invalid webhook configuration:', 'invalid admission policy:']);
    for (const cause of COSTLY_CAUSES)
      expect(error.message).toContain(`costly.cel.example.com/v1: ${cause.field.replace(/^spec\.validation\./, '')}: ${cause.message}`);
    expect(error.message).toContain(
      'manifests[5] (MutatingAdmissionPolicy "refused-mutation") spec.mutations[0].applyConfiguration.expression: Invalid value: ',
    );
  });

  it('an unknown celRefusals is a usage error', async () => {
    const error = await thrown({ manifests: [ACCEPTED_WEBHOOK], celRefusals: 'ignore' as never });
    expect(error.code).toBe('USAGE');
    expect(error.message).toBe(`celRefusals must be 'throw' or 'leave-out', got "ignore"\n  hint: leave it out to throw, or pass 'leave-out'`);
  });
});

describe("celRefusals: 'leave-out': the cluster where applying the refused objects failed", () => {
  let h: Harness;
  const paths: string[] = [];
  let dir: string;
  let file: string;
  beforeAll(async () => {
    ({ dir, file } = manifestFile(MIXED));
    h = await createHarness({ seed: 5, target: denyingTarget(paths), manifests: [file], celRefusals: 'leave-out' });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a refused webhook configuration is not there: the request it would have matched is admitted without a call', async () => {
    expect(h.webhooks.map((entry) => entry.spec.name)).toEqual(['accepted.example.com']);
    const result = await h.admit(review.create(objects.pod({ namespace: 'default', labels: { app: 'web' } })));
    expect(result).toBeAllowed();
    expect(paths).toEqual([]);
    expect(() => h.webhook('refused.example.com')).toThrow(HarnessError);
  });

  it('the accepted webhook still runs (its matchCondition compiled): a pod labelled deny reaches it and is denied', async () => {
    paths.length = 0;
    const result = await h.admit(review.create(objects.pod({ namespace: 'default', labels: { deny: 'yes' } })));
    expect(result).toBeDenied({ code: 403, message: /denied at \/accepted/ });
    expect(paths).toEqual(['/accepted']);
  });

  it('a refused policy does not run: the pod it would deny (failurePolicy Fail) and label is admitted unchanged', async () => {
    expect(h.validatingPolicies).toEqual([]);
    expect(h.mutatingPolicies).toEqual([]);
    expect(() => h.policy('refused-policy')).toThrow(/no ValidatingAdmissionPolicy or MutatingAdmissionPolicy named "refused-policy"/);
    const result = await h.admit(review.create(objects.pod({ namespace: 'default', labels: { app: 'web' } })));
    expect(result).toBeAllowed();
    expect(result.object?.metadata?.labels).toEqual({ app: 'web' });
  });

  it('a refused CustomResourceDefinition is not served', () => {
    expect(h.catalog.resourceForKind(COSTLY)).toBeUndefined();
    expect(h.catalog.resources().some((entry) => entry.group === COSTLY.group)).toBe(false);
    const costly = { apiVersion: 'cel.example.com/v1', kind: 'Costly', metadata: { name: 'c', namespace: 'default' }, spec: { items: [] } };
    expect(() => review.create(costly, { catalog: h.catalog })).toThrow('no resource serves cel.example.com/v1 Costly');
  });

  it('h.lint() lists every refusal with the ids and texts `admission-harness lint` reports, the CRD’s cost with kube’s text', async () => {
    let output = '';
    const code = await lintCommand({ manifests: [file], json: true }, (text) => {
      output += text;
    });
    expect(code).toBe(1);
    const cli = (JSON.parse(output) as { findings: unknown[] }).findings;
    expect(h.lint()).toEqual(cli);
    expect(h.lint().map((finding) => finding.id)).toEqual([
      'crd-rule-cost',
      'crd-rule-cost',
      'crd-rule-cost',
      'match-condition-invalid',
      'policy-expression-invalid',
      'policy-expression-invalid',
      'policy-expression-invalid',
    ]);
    expect(h.lint()[0]!.message).toBe(
      'kube-apiserver refuses this CustomResourceDefinition: openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    );
  });
});

describe("celRefusals: 'leave-out' with nothing refused", () => {
  it('changes nothing: every object is there and h.lint() has no refusal', async () => {
    const h = await createHarness({ seed: 6, target: denyingTarget([]), manifests: [ACCEPTED_WEBHOOK, boundedCostlyCrd()], celRefusals: 'leave-out' });
    try {
      expect(h.webhooks.map((entry) => entry.spec.name)).toEqual(['accepted.example.com']);
      expect(h.catalog.resourceForKind(COSTLY)).toMatchObject({ resource: 'costly' });
      expect(h.lint()).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

/** The recorded CRD with its list and strings bounded, as kube's refusal suggests: its estimate is then within budget. */
function boundedCostlyCrd(): Record<string, unknown> {
  const crd = structuredClone(COSTLY_CRD) as {
    spec: { versions: { schema: { openAPIV3Schema: { properties: { spec: { properties: { items: Record<string, unknown> } } } } } }[] };
  };
  const items = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.items;
  items.maxItems = 10;
  items.items = { type: 'string', maxLength: 10 };
  return crd;
}
