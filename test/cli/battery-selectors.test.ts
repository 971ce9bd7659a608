// The battery sends a webhook only what kube-apiserver would: from a namespace its namespaceSelector
// matches, objects its objectSelector matches. The other side of each selector is shown by an admission
// in which the webhook is skipped; a side no namespace or object can be on is said, and is no cell.
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { createHarness, stub, type Harness } from '../../lib';
import { namespaceLabels } from '../../lib/kube/namespaces';
import { matchNamespaceSelector } from '../../lib/match/namespace-selector';
import { matchObjectSelector } from '../../lib/match/object-selector';
import { runBattery, type BatteryReport } from '../../lib/battery/battery';
import { mutating, validating } from '../dispatch/helpers';

const podRules = [{ operations: ['CREATE', 'UPDATE', 'CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/exec'] }];

const NAMESPACE_SELECTORS: [string, LabelSelector][] = [
  ['matchLabels', { matchLabels: { injection: 'enabled' } }],
  ['In', { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] }],
  ['NotIn', { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }],
  ['Exists', { matchExpressions: [{ key: 'team', operator: 'Exists' }] }],
  ['DoesNotExist', { matchExpressions: [{ key: 'opt-out', operator: 'DoesNotExist' }] }],
  ['NotIn on the name label', { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] }],
];

async function battery(hooks: Record<string, unknown>[]): Promise<{ h: Harness; report: BatteryReport }> {
  const h = await createHarness({
    seed: 11,
    manifests: hooks.map((hook, i) => (i % 2 === 0 ? validating(`c${i}`, hook as never) : mutating(`c${i}`, hook as never))),
    stubs: Object.fromEntries(hooks.map((hook) => [hook.name as string, stub.allow()])),
  });
  return { h, report: await runBattery(h, { only: ['uid-echo'] }) };
}

describe('namespaceSelector', () => {
  let h: Harness;
  let report: BatteryReport;
  const names = NAMESPACE_SELECTORS.map((_, i) => `ns-${i}.example.com`);
  beforeAll(async () => {
    ({ h, report } = await battery(NAMESPACE_SELECTORS.map(([, namespaceSelector], i) => ({ name: names[i], rules: podRules, namespaceSelector }))));
  }, 300_000);
  afterAll(() => h.close());

  it.each(NAMESPACE_SELECTORS.map(([label, selector], i) => [label, selector, i] as const))(
    '%s: every request the webhook was sent came from a namespace the selector matches',
    (_label, namespaceSelector, i) => {
      const received = h.stub(names[i]!).received.map((r) => r.request!);
      expect(received.length).toBeGreaterThan(0);
      for (const request of received) {
        const labels = h.namespaces.labels(request.namespace!);
        expect(labels).toBeDefined();
        expect(
          matchNamespaceSelector({ namespaceSelector }, { ...request, namespace: request.namespace!, object: null, oldObject: null } as never, {
            labels: () => namespaceLabels(request.namespace!, labels),
          }).matches,
        ).toBe(true);
      }
    },
  );

  it.each(NAMESPACE_SELECTORS.map(([label], i) => [label, i] as const))('%s: both sides of the selector are covered, and every cell', (_label, i) => {
    const webhook = h
      .coverage()
      .summary()
      .webhooks.find((w) => w.name === names[i])!;
    expect(webhook.cells.filter((c) => c.dimension === 'namespaceSelector').map((c) => [c.key, c.covered])).toEqual([
      ['namespaceSelector: matched', true],
      ['namespaceSelector: not matched', true],
    ]);
    expect(webhook.uncovered).toEqual([]);
  });

  it('says nothing was left out', () => {
    expect(report.skipped).toEqual([]);
    expect(report.failed).toBe(0);
  });
});

describe('objectSelector', () => {
  const objectSelector: LabelSelector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] };
  let h: Harness;
  let report: BatteryReport;
  beforeAll(async () => {
    ({ h, report } = await battery([{ name: 'objects.example.com', rules: podRules, objectSelector }]));
  }, 300_000);
  afterAll(() => h.close());

  it('labels every object it sends so that the selector matches it (object or old object), and sends no CONNECT', () => {
    const received = h.stub('objects.example.com').received.map((r) => r.request!);
    expect(received.length).toBeGreaterThan(0);
    for (const request of received)
      expect(matchObjectSelector({ objectSelector }, { object: request.object ?? null, oldObject: request.oldObject ?? null } as never).matches).toBe(true);
    expect(received.some((r) => r.operation === 'CONNECT')).toBe(false);
    expect(report.skipped).toEqual([
      {
        webhook: 'objects.example.com',
        reason: 'CONNECT pods/exec: not sent: an objectSelector other than {} never matches a CONNECT (its options object has no labels)',
      },
    ]);
  });

  it('covers both sides of the selector, and has no CONNECT cell to leave uncovered', () => {
    const webhook = h.coverage().summary().webhooks[0]!;
    expect(webhook.uncovered).toEqual([]);
    expect(webhook.cells.filter((c) => c.dimension === 'objectSelector').every((c) => c.covered)).toBe(true);
  });
});

describe('a side no namespace can be on', () => {
  it('is said in the report and is no cell: every namespace carries kubernetes.io/metadata.name', async () => {
    const namespaceSelector = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }] };
    const { h, report } = await battery([{ name: 'everywhere.example.com', rules: podRules, namespaceSelector }]);
    try {
      expect(report.skipped).toEqual([
        {
          webhook: 'everywhere.example.com',
          reason: `the namespaceSelector's not-matched side: every namespace matches namespaceSelector ${JSON.stringify(namespaceSelector)}: each carries the label kubernetes.io/metadata.name`,
        },
      ]);
      const webhook = h.coverage().summary().webhooks[0]!;
      expect(webhook.cells.filter((c) => c.dimension === 'namespaceSelector').map((c) => c.key)).toEqual(['namespaceSelector: matched']);
      expect(webhook.uncovered).toEqual([]);
    } finally {
      await h.close();
    }
  }, 300_000);
});

describe('a CONNECT-only webhook', () => {
  it('is fully covered by the battery: a CONNECT is never a dry run, so there is no dryRun: true cell to miss', async () => {
    const { h, report } = await battery([
      { name: 'exec.example.com', rules: [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/exec', 'pods/attach'] }] },
    ]);
    try {
      expect(report.failed).toBe(0);
      const webhook = h.coverage().summary().webhooks[0]!;
      expect(webhook.cells.map((c) => [c.key, c.covered])).toEqual([
        ['CONNECT pods/attach [Namespaced]', true],
        ['CONNECT pods/exec [Namespaced]', true],
        ['dryRun: false', true],
      ]);
    } finally {
      await h.close();
    }
  }, 300_000);
});

describe('an objectSelector on cluster-scoped requests', () => {
  it('is shown both sides: labels on the objects sent, an admission of one labelled not to match', async () => {
    const objectSelector = { matchExpressions: [{ key: 'rbac.example.com/managed', operator: 'Exists' }] };
    const { h, report } = await battery([
      {
        name: 'roles.example.com',
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['rbac.authorization.k8s.io'], apiVersions: ['v1'], resources: ['clusterroles'] }],
        objectSelector,
      },
    ]);
    try {
      expect(report.skipped).toEqual([]);
      const received = h.stub('roles.example.com').received.map((r) => r.request!);
      expect(received.length).toBeGreaterThan(0);
      for (const request of received)
        expect(matchObjectSelector({ objectSelector }, { object: request.object ?? null, oldObject: request.oldObject ?? null } as never).matches).toBe(true);
      expect(h.coverage().summary().webhooks[0]!.uncovered).toEqual([]);
    } finally {
      await h.close();
    }
  }, 300_000);
});
