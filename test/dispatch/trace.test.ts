import { createHarness, objects, review, stub } from '../../lib';
import { mutating, setLabel, validating } from './helpers';

describe('the admission trace', () => {
  it('prints every webhook’s decision as a tree, in call order', async () => {
    const h = await createHarness({
      namespaces: [{ name: 'shop' }],
      seed: 8,
      manifests: [
        mutating(
          'm',
          { name: 'labeler.example.com', reinvocationPolicy: 'IfNeeded' },
          { name: 'other.example.com', objectSelector: { matchLabels: { tier: 'db' } } },
          { name: 'second.example.com' },
        ),
        validating('v', { name: 'policy.example.com' }),
      ],
      stubs: {
        'labeler.example.com': stub.patch(setLabel('team', 'a')),
        'other.example.com': stub.allow(),
        'second.example.com': stub.patch(setLabel('second', 'b')),
        'policy.example.com': stub.deny({ code: 403, message: 'nope' }),
      },
    });
    try {
      const result = await h.admit(review.create(objects.pod({ name: 'web-1', namespace: 'shop' })));
      const text = String(result.trace).replace(/\(\d+\.\d ms\)/g, '(… ms)');
      expect(text).toBe(
        [
          'CREATE pods shop/web-1 · seed 8',
          '├─ mutating round 0',
          '│  ├─ [0] m/labeler.example.com: allowed (… ms), patch of 1 op, mutated',
          '│  ├─ [1] m/other.example.com: skipped — objectSelector {tier=db} matched neither object nor oldObject',
          '│  └─ [2] m/second.example.com: allowed (… ms), patch of 1 op, mutated',
          '├─ mutating round 1',
          '│  ├─ [0] m/labeler.example.com: allowed (… ms), patch of 1 op, no change',
          '│  ├─ [1] m/other.example.com: skipped — objectSelector {tier=db} matched neither object nor oldObject',
          '│  └─ [2] m/second.example.com: not reinvoked — it was not scheduled for round 1',
          '└─ validating',
          '   └─ [0] v/policy.example.com: denied (… ms) — 403 admission webhook "policy.example.com" denied the request: nope',
        ].join('\n'),
      );
      expect(result).toBeDenied({ code: 403 });
    } finally {
      await h.close();
    }
  });
});
