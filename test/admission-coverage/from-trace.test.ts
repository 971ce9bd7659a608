import { createHarness, objects, review, stub, type Harness } from '../../lib';
import {
  CoverageCollector,
  directCallEvent,
  formatTable,
  mergeSummaries,
  eventFromDecision,
  eventFromTraceStep,
  eventsFromTrace,
  type CoverageDecision,
  type CoverageTraceStep,
} from '../../lib/admission-coverage';
import type { WebhookEntry } from '../../lib/config/load';
import { defaultCatalog } from '../../lib/kube/catalog';
import { prepareMatchConditions } from '../../lib/match/conditions';
import { shouldCallHook } from '../../lib/match/should-call';
import type { Review } from '../../lib/review';
import { mutating, validating } from '../dispatch/helpers';
import { rule, validatingEntry } from './helpers';

// The sentences are produced by the real shouldCallHook, so a change of wording in lib/match fails here.
const labels: Record<string, Record<string, string>> = { shop: { env: 'prod' }, dev: { env: 'dev' } };
const namespaces = { labels: (name: string) => labels[name] };

async function decide(entry: WebhookEntry, r: Review): Promise<CoverageDecision> {
  const conditions = await prepareMatchConditions([entry]);
  const decision = shouldCallHook(entry.spec, r.attributes, { namespaces, resources: defaultCatalog, ...(conditions ? { conditions } : {}) });
  return eventFromDecision(entry, decision, r.attributes).decision;
}

const selective = (more: Partial<Parameters<typeof validatingEntry>[0]> = {}): WebhookEntry =>
  validatingEntry({
    name: 'pods.example.com',
    namespaceSelector: { matchLabels: { env: 'prod' } },
    objectSelector: { matchLabels: { app: 'web' } },
    rules: [rule(['CREATE'], ['pods'])],
    ...more,
  });
const web = (namespace: string, name = 'web-1') => objects.pod({ namespace, name, labels: { app: 'web' } });

describe('events from shouldCallHook’s sentences', () => {
  it('called: every predicate’s verdict, and every condition true', async () => {
    const entry = selective({ matchConditions: [{ name: 'a', expression: 'true' }] });
    expect(await decide(entry, review.create(web('shop')))).toEqual({
      outcome: 'called',
      predicates: { namespaceSelector: 'matched', objectSelector: 'matched', matchConditions: [{ name: 'a', result: 'true' }] },
    });
  });

  it.each<[string, () => Review, CoverageDecision]>([
    [
      'a namespace the selector does not match',
      () => review.create(web('dev')),
      { outcome: 'skipped', by: 'namespaceSelector', predicates: { namespaceSelector: 'not-matched' } },
    ],
    [
      'an object the selector does not match',
      () => review.create(objects.pod({ namespace: 'shop', labels: { app: 'db' } })),
      { outcome: 'skipped', by: 'objectSelector', predicates: { namespaceSelector: 'matched', objectSelector: 'not-matched' } },
    ],
    [
      'an operation the rules do not name',
      () => review.update(web('shop'), web('shop')),
      { outcome: 'skipped', by: 'rules', predicates: { namespaceSelector: 'matched', objectSelector: 'matched' } },
    ],
    [
      'a namespace that does not exist (its error waits for the rules)',
      () => review.create(web('ghost')),
      { outcome: 'skipped', by: 'namespaceSelector', predicates: { namespaceSelector: 'error', objectSelector: 'matched' } },
    ],
  ])('skipped: %s', async (_label, make, expected) => {
    expect(await decide(selective(), make())).toEqual(expected);
  });

  it('a cluster-scoped request: the namespaceSelector does not apply', async () => {
    const entry = validatingEntry({
      name: 'nodes.example.com',
      namespaceSelector: { matchLabels: { env: 'prod' } },
      rules: [rule(['CREATE'], ['namespaces'])],
    });
    const node = review.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    expect(await decide(entry, node)).toEqual({
      outcome: 'skipped',
      by: 'rules',
      predicates: { namespaceSelector: 'not-applicable', objectSelector: 'matched' },
    });
  });

  it('a false condition: only that condition’s result is known', async () => {
    const entry = selective({
      matchConditions: [
        { name: 'a', expression: 'true' },
        { name: 'not-blocked', expression: "object.metadata.name != 'blocked'" },
      ],
    });
    expect(await decide(entry, review.create(web('shop', 'blocked')))).toEqual({
      outcome: 'skipped',
      by: 'matchConditions',
      predicates: { namespaceSelector: 'matched', objectSelector: 'matched', matchConditions: [{ name: 'not-blocked', result: 'false' }] },
    });
  });

  it.each(['Ignore', 'Fail'] as const)('failed conditions with failurePolicy %s: the failed ones are errors, the others true', async (failurePolicy) => {
    const entry = selective({
      failurePolicy,
      matchConditions: [
        { name: 'a', expression: 'true' },
        { name: 'b', expression: 'object.metadata.labels.missing == "x"' },
      ],
    });
    expect(await decide(entry, review.create(web('shop')))).toEqual({
      outcome: 'skipped',
      by: 'matchConditions',
      predicates: {
        namespaceSelector: 'matched',
        objectSelector: 'matched',
        matchConditions: [
          { name: 'a', result: 'true' },
          { name: 'b', result: 'error' },
        ],
      },
    });
  });
});

describe('events from trace steps', () => {
  const entry = selective();
  const attributes = review.create(web('shop')).attributes;
  const passed = [
    'namespaceSelector {env=prod} matched namespace "shop" (labels {"env":"prod"})',
    'objectSelector {app=web} matched',
    'rules[0] matched CREATE v1 pods',
  ];
  const step = (fields: Partial<CoverageTraceStep>): CoverageTraceStep => ({
    phase: 'validating',
    configuration: 'policy',
    webhook: 'pods.example.com',
    decision: 'called',
    why: passed,
    ...fields,
  });

  it('reads a rejected-without-call step whose predicates all passed as a call (a dryRun refusal)', () => {
    expect(eventFromTraceStep(entry, step({ decision: 'rejected-without-call' }), attributes)?.decision).toEqual({
      outcome: 'called',
      predicates: { namespaceSelector: 'matched', objectSelector: 'matched' },
    });
    expect(eventFromTraceStep(entry, step({ decision: 'not-reinvoked' }), attributes)?.decision.outcome).toBe('called');
  });

  it('prefers the conditions’ results when the step carries them', () => {
    const conditional = selective({
      matchConditions: [
        { name: 'a', expression: 'true' },
        { name: 'b', expression: 'false' },
      ],
    });
    const results = [
      { name: 'a', result: 'true' as const },
      { name: 'b', result: 'false' as const },
    ];
    const decision = eventFromTraceStep(
      conditional,
      step({ decision: 'skipped', why: [...passed, 'matchConditions "b" evaluated to false'], matchConditions: results }),
      attributes,
    )?.decision;
    expect(decision).toEqual({
      outcome: 'skipped',
      by: 'matchConditions',
      predicates: { namespaceSelector: 'matched', objectSelector: 'matched', matchConditions: results },
    });
  });

  it('leaves out plugins, policies, the registry and other webhooks', () => {
    const steps: CoverageTraceStep[] = [
      step({ phase: 'mutating', configuration: '', webhook: 'LimitRanger', plugin: true, why: [] }),
      step({ phase: 'validating-policy', configuration: 'p', webhook: 'b', policy: { kind: 'ValidatingAdmissionPolicy', outcome: 'allowed', errors: [] } }),
      step({ phase: 'registry', configuration: '', webhook: 'registry', why: [] }),
      step({ phase: 'mutating' }),
      step({ configuration: 'other' }),
      step({}),
    ];
    expect(eventsFromTrace(steps, attributes, [entry])).toEqual([
      { webhook: entry, request: attributes, decision: { outcome: 'called', predicates: { namespaceSelector: 'matched', objectSelector: 'matched' } } },
    ]);
    expect(eventFromTraceStep(entry, steps[0] as CoverageTraceStep, attributes)).toBeUndefined();
  });

  it('a refusal before the webhook’s turn makes it unreached, naming what refused', () => {
    const refusal = { apiVersion: 'v1', kind: 'Status', status: 'Failure', code: 403, message: 'no' } as const;
    const refusedBy = (fields: Partial<CoverageTraceStep>) =>
      eventsFromTrace([step({ decision: 'called', ...fields, rejection: refusal })], attributes, [entry]);
    expect(refusedBy({ phase: 'mutating', configuration: '', webhook: 'ServiceAccount', plugin: true, why: [] })).toEqual([
      { webhook: entry, request: attributes, decision: { outcome: 'unreached', refusedBy: 'ServiceAccount (built-in plugin)' } },
    ]);
    expect(
      refusedBy({
        phase: 'validating-policy',
        configuration: 'guard',
        webhook: 'b',
        policy: { kind: 'ValidatingAdmissionPolicy', outcome: 'denied', errors: [] },
      })[0]?.decision,
    ).toEqual({ outcome: 'unreached', refusedBy: 'ValidatingAdmissionPolicy guard' });
    expect(refusedBy({ phase: 'registry', configuration: '', webhook: 'registry', why: [] })[0]?.decision).toEqual({
      outcome: 'unreached',
      refusedBy: "the API's validation of the object",
    });
    expect(refusedBy({ phase: 'mutating', configuration: 'm', webhook: 'deny.example.com' })[0]?.decision).toEqual({
      outcome: 'unreached',
      refusedBy: 'mutating m/deny.example.com',
    });
    // The webhook that refused was reached: its own step is its event.
    expect(refusedBy({})).toEqual([
      { webhook: entry, request: attributes, decision: { outcome: 'called', predicates: { namespaceSelector: 'matched', objectSelector: 'matched' } } },
    ]);
    // Without a refusal, a webhook with no step is simply not in the trace.
    expect(eventsFromTrace([], attributes, [entry])).toEqual([]);
  });
});

describe('coverage of a real h.admit and h.call', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      seed: 1,
      manifests: [
        mutating('defaults', { name: 'defaults.example.com', rules: [rule(['CREATE', 'UPDATE'], ['pods'])], reinvocationPolicy: 'IfNeeded' }),
        validating('policy', {
          name: 'pods.example.com',
          namespaceSelector: { matchLabels: { env: 'prod' } },
          rules: [rule(['CREATE'], ['pods']), rule(['CONNECT'], ['pods/exec'])],
          matchConditions: [{ name: 'not-blocked', expression: "!has(object.metadata.name) || object.metadata.name != 'blocked'" }],
        }),
      ],
      stubs: { 'defaults.example.com': stub.allow(), 'pods.example.com': stub.allow() },
      namespaces: [
        { name: 'shop', labels: { env: 'prod' } },
        { name: 'dev', labels: { env: 'dev' } },
      ],
    });
  });
  afterAll(() => h.close());

  it('records every webhook step of each trace, and an h.call', async () => {
    const coverage = new CoverageCollector(h.webhooks, { catalog: h.catalog });
    for (const r of [review.create(web('shop')), review.create(web('dev')), review.create(web('shop', 'blocked')).dryRun()]) {
      const result = await h.admit(r);
      expect(result).toBeAllowed();
      expect(coverage.recordTrace(result.trace, r.attributes)).toBe(2);
    }
    const exec = review.exec(web('shop'), ['sh']);
    await h.call('pods.example.com', exec);
    expect(coverage.record(directCallEvent(h.webhooks.find((w) => w.spec.name === 'pods.example.com') as WebhookEntry, exec.attributes))).toBe(true);

    const [defaults, policy] = coverage.summary().webhooks;
    expect(defaults).toMatchObject({ name: 'defaults.example.com', covered: 3, total: 4, uncovered: ['UPDATE pods [Namespaced]'] });
    expect(policy).toMatchObject({ name: 'pods.example.com', uncovered: ['matchCondition not-blocked: error', 'dryRun: true'], outside: [] });
    expect(policy?.cells.filter((c) => c.covered).map((c) => c.key)).toEqual([
      'CREATE pods [Namespaced]',
      'CONNECT pods/exec [Namespaced]',
      'namespaceSelector: matched',
      'namespaceSelector: not matched',
      'matchCondition not-blocked: true',
      'matchCondition not-blocked: false',
      'dryRun: false',
    ]);
  });
});

describe('requests refused before a webhook’s turn', () => {
  it('are listed under each webhook whose rules match them, with what refused them first, in the summary, the table and merged summaries', async () => {
    const h = await createHarness({
      seed: 3,
      manifests: [
        mutating('defaults', { name: 'defaults.example.com', rules: [rule(['CREATE'], ['pods'])] }),
        validating('policy', { name: 'pods.example.com', rules: [rule(['CREATE'], ['pods'])] }),
        validating('maps', { name: 'configmaps.example.com', rules: [rule(['CREATE'], ['configmaps'])] }),
      ],
      stubs: { 'defaults.example.com': stub.deny({ message: 'no' }), 'pods.example.com': stub.allow(), 'configmaps.example.com': stub.allow() },
      namespaces: [{ name: 'shop' }],
    });
    try {
      const pod = objects.pod({ namespace: 'shop', name: 'web' }, { seed: 3 });
      // Refused by the ServiceAccount plugin before any webhook, then by the mutating webhook before the validating one.
      expect((await h.admit(review.create({ ...pod, spec: { ...(pod.spec as object), serviceAccountName: 'ghost' } }))).status?.code).toBe(403);
      expect(h.coverage().summary().webhooks[0]?.unreached).toEqual(['CREATE pods [Namespaced]: refused first by ServiceAccount (built-in plugin)']);
      expect((await h.admit(review.create(pod))).status?.message).toContain('denied the request: no');
      const [defaults, policy, maps] = h.coverage().summary().webhooks;
      // The mutating webhook has since been called with a pod create: that shape is no gap any more.
      expect(defaults?.unreached).toEqual([]);
      expect(policy?.unreached).toEqual([
        'CREATE pods [Namespaced]: refused first by ServiceAccount (built-in plugin)',
        'CREATE pods [Namespaced]: refused first by mutating defaults/defaults.example.com',
      ]);
      // Its rules do not match pods: nothing kept it from a request it would have had.
      expect(maps?.unreached).toEqual([]);
      expect(formatTable(h.coverage().summary())).toContain(
        '     not reached: CREATE pods [Namespaced]: refused first by mutating defaults/defaults.example.com',
      );
      // Merged with a summary written before `unreached` existed, and with one where the webhook was reached.
      const summary = h.coverage().summary();
      const merged = mergeSummaries([summary, { ...summary, webhooks: summary.webhooks.map(({ unreached: _gone, ...w }) => w) }]);
      expect(merged.webhooks[1]?.unreached).toEqual(policy?.unreached);
      const reached = { ...summary, webhooks: summary.webhooks.map((w) => ({ ...w, unreached: [], cells: w.cells.map((c) => ({ ...c, covered: true })) })) };
      expect(mergeSummaries([summary, reached]).webhooks[1]?.unreached).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

it('a ValidatingAdmissionPolicy’s denial leaves the validating webhooks unreached, and its binding’s step carries the refusal', async () => {
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'no-pods' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] },
      validations: [{ expression: 'false', message: 'no pods' }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'no-pods-binding' },
    spec: { policyName: 'no-pods', validationActions: ['Deny'] },
  };
  const h = await createHarness({
    seed: 3,
    manifests: [validating('policy', { name: 'pods.example.com', rules: [rule(['CREATE'], ['pods'])] }), policy, binding] as never[],
    stubs: { 'pods.example.com': stub.allow() },
    namespaces: [{ name: 'shop' }],
  });
  try {
    const result = await h.admit(review.create(objects.pod({ namespace: 'shop', name: 'web' }, { seed: 3 })));
    expect(result.status?.code).toBe(422);
    expect(result.trace.steps.find((s) => s.policy)?.rejection).toEqual(result.status);
    expect(h.coverage().summary().webhooks[0]?.unreached).toEqual(['CREATE pods [Namespaced]: refused first by ValidatingAdmissionPolicy no-pods']);
  } finally {
    await h.close();
  }
});
