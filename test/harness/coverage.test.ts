// h.coverage(): the cells of each webhook's registration the calls and admissions exercised (lib/admission-coverage).
import { createHarness, objects, review, stub } from '../../lib';
import { mutating } from '../dispatch/helpers';

it('counts what h.call and h.admit exercised, and names what they did not', async () => {
  const h = await createHarness({
    seed: 3,
    namespaces: [{ name: 'shop', labels: { env: 'prod' } }],
    manifests: [mutating('m', { name: 'm.example.com', rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }], namespaceSelector: { matchLabels: { env: 'prod' } } } as never)],
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
