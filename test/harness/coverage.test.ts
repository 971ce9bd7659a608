// h.coverage(): the cells of each webhook's registration the calls and admissions exercised (lib/admission-coverage).
import { createHarness, objects, review, stub } from '../../lib';
import { mutating } from '../dispatch/helpers';

it('counts what h.call and h.admit exercised, and names what they did not', async () => {
  const h = await createHarness({
    seed: 3,
    namespaces: [{ name: 'shop', labels: { env: 'prod' } }],
    manifests: [
      mutating('m', {
        name: 'm.example.com',
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
        namespaceSelector: { matchLabels: { env: 'prod' } },
      } as never),
    ],
    stubs: { 'm.example.com': stub.allow() },
  });
  try {
    const pod = objects.pod({ name: 'web', namespace: 'shop' }, { seed: 3 });
    await h.call('m.example.com', review.create(pod));
    await h.admit(review.create(pod));
    const summary = h.coverage().summary();
    const webhook = summary.webhooks[0]!;
    expect(webhook.covered).toBeGreaterThan(0);
    expect(webhook.covered).toBeLessThan(webhook.total);
    expect(webhook.uncovered).toContain('UPDATE pods [Namespaced]');
    expect(h.coverage().toTable()).toContain('m.example.com');
    expect(h.coverage().meetsThreshold(100)).toBe(false);
  } finally {
    await h.close();
  }
});

describe('h.call counts the selector cells as h.admit does', () => {
  const manifests = [
    mutating('m', {
      name: 'm.example.com',
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      objectSelector: { matchLabels: { app: 'web' } },
    } as never),
  ];
  const namespaces = [
    { name: 'shop', labels: { env: 'prod' } },
    { name: 'dev', labels: { env: 'dev' } },
  ];
  const pod = (namespace: string, app: string) => objects.pod({ name: `${app}-1`, namespace, labels: { app } }, { seed: 5 });
  const requests = () => [
    review.create(pod('shop', 'web')), // both selectors match
    review.create(pod('dev', 'web')), // the namespace's labels do not match: the objectSelector is never judged
    review.create(pod('shop', 'db')), // the object's labels do not match
  ];
  const coveredBy = async (send: (h: Awaited<ReturnType<typeof createHarness>>) => Promise<unknown>): Promise<string[]> => {
    const h = await createHarness({ seed: 5, namespaces, manifests, stubs: { 'm.example.com': stub.allow() } });
    try {
      await send(h);
      return h
        .coverage()
        .summary()
        .webhooks[0]!.cells.filter((cell) => cell.covered)
        .map((cell) => cell.key);
    } finally {
      await h.close();
    }
  };

  it('covers matched and not matched of both selectors from the namespace’s and the object’s labels, and the rule cells only when both matched', async () => {
    const byCall = await coveredBy(async (h) => {
      for (const r of requests()) await h.call('m.example.com', r);
    });
    expect(byCall).toEqual([
      'CREATE pods [Namespaced]',
      'namespaceSelector: matched',
      'namespaceSelector: not matched',
      'objectSelector: matched',
      'objectSelector: not matched',
      'dryRun: false',
    ]);
    const byAdmit = await coveredBy(async (h) => {
      for (const r of requests()) await h.admit(r);
    });
    expect(byCall).toEqual(byAdmit);
  }, 60_000);

  it('an UPDATE matches the objectSelector through its old object; a namespace relabelled later is judged by its labels at the call', async () => {
    const covered = await coveredBy(async (h) => {
      await h.call('m.example.com', review.update(pod('shop', 'web'), pod('shop', 'db')));
      h.namespaces.set({ name: 'shop', labels: { env: 'staging' } });
      await h.call('m.example.com', review.create(pod('shop', 'web')));
    });
    expect(covered).toEqual([
      'UPDATE pods [Namespaced]',
      'namespaceSelector: matched',
      'namespaceSelector: not matched',
      'objectSelector: matched',
      'dryRun: false',
    ]);
  }, 60_000);

  it('a namespace the harness was not told of covers no namespaceSelector cell, and the call still counts (it happened)', async () => {
    const covered = await coveredBy(async (h) => {
      await h.call('m.example.com', review.create(pod('ghost', 'web')));
    });
    expect(covered).toEqual(['CREATE pods [Namespaced]', 'objectSelector: matched', 'dryRun: false']);
  }, 60_000);
});
