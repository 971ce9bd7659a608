import { createHarness, objects, review, stub } from '../../lib';
import { mutating } from './helpers';

describe('mutated (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go callAttrMutatingHook)', () => {
  it('is false for a patch that leaves the object as it was, so nothing is reinvoked', async () => {
    const h = await createHarness({
      seed: 4,
      manifests: [mutating('m', { name: 'first.example.com', reinvocationPolicy: 'IfNeeded' }, { name: 'noop.example.com' })],
      stubs: { 'first.example.com': stub.allow(), 'noop.example.com': stub.patch([{ op: 'replace', path: '/metadata/name', value: 'web-1' }]) },
    });
    try {
      const result = await h.admit(review.create(objects.pod({ name: 'web-1' })));
      expect(result.auditAnnotations['mutation.webhook.admission.k8s.io/round_0_index_1']).toBe(
        '{"configuration":"m","webhook":"noop.example.com","mutated":false}',
      );
      expect(result.trace.calls.map((s) => s.webhook)).toEqual(['first.example.com', 'noop.example.com']);
    } finally {
      await h.close();
    }
  });
});
