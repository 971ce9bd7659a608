import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { validating } from '../dispatch/helpers';
import { failure } from './failure';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    namespaces: [{ name: 'shop' }],
    seed: 3,
    manifests: [validating('policy', { name: 'policy.example.com' })],
    stubs: {
      'policy.example.com': stub.allow({
        warnings: ['image nginx:1.27 is not pinned by digest', 'line one\nline two'],
        auditAnnotations: { 'image-policy': 'unpinned', 'bad key': 'x' },
      }),
    },
  });
});
afterAll(() => h.close());

const request = () => review.create(objects.pod({ name: 'web-1', namespace: 'shop', images: ['nginx:1.27'] }));

describe('toHaveWarning', () => {
  it('matches the webhook’s own warnings on a call, by substring or pattern', async () => {
    const outcome = await h.call('policy.example.com', request());
    expect(outcome).toHaveWarning('not pinned by digest');
    expect(outcome).toHaveWarning(/^image \S+ is not pinned/);
    expect(outcome).toHaveWarning('line one\nline two');
    expect(outcome).not.toHaveWarning('deprecated');
    const message = failure(() => expect(outcome).toHaveWarning('deprecated'));
    expect(message).toContain(
      'expected a warning containing "deprecated", but the webhook sent only:\n  - "image nginx:1.27 is not pinned by digest"\n  - "line one\\nline two"',
    );
    expect(message).toContain('Request:  CREATE pods shop/web-1 → policy.example.com [admission.k8s.io/v1] · seed 3');
    expect(failure(() => expect(outcome).not.toHaveWarning(/pinned/))).toContain(
      'expected no warning matching /pinned/, but the webhook sent:\n  - "image nginx:1.27 is not pinned by digest"',
    );
  });

  it('matches what the client receives on h.admit(), and names warnings kube-apiserver dropped', async () => {
    const result = await h.admit(request());
    expect(result).toHaveWarning('not pinned by digest');
    const message = failure(() => expect(result).toHaveWarning('line one'));
    expect(message).toContain('expected a warning containing "line one", but the client received only:\n  - "image nginx:1.27 is not pinned by digest"');
    expect(message).toContain('kube-apiserver dropped a matching warning:\n  - "line one\\nline two": warnings may not contain control characters');
    expect(message).toContain('Trace:');
  });
});

describe('toHaveAuditAnnotation', () => {
  it('reads the webhook’s own keys on a call', async () => {
    const outcome = await h.call('policy.example.com', request());
    expect(outcome).toHaveAuditAnnotation('image-policy');
    expect(outcome).toHaveAuditAnnotation('image-policy', 'unpinned');
    expect(outcome).toHaveAuditAnnotation('image-policy', /^unpin/);
    expect(outcome).toHaveAuditAnnotation('image-policy', expect.stringContaining('pinned'));
    expect(outcome).not.toHaveAuditAnnotation('image-policy', 'pinned');
    expect(failure(() => expect(outcome).toHaveAuditAnnotation('image-policy', 'pinned'))).toContain(
      'expected audit annotation "image-policy" = "pinned", but its value is "unpinned"',
    );
    expect(failure(() => expect(outcome).toHaveAuditAnnotation('owner'))).toContain(
      'expected audit annotation "owner", but there are only:\n  - image-policy="unpinned"\n  - bad key="x"',
    );
    expect(failure(() => expect(outcome).not.toHaveAuditAnnotation('image-policy'))).toContain(
      'expected no audit annotation "image-policy", but found "image-policy" = "unpinned"',
    );
  });

  it('reads <webhook>/<key> on h.admit(), hinting at the prefix and naming dropped keys', async () => {
    const result = await h.admit(request());
    expect(result).toHaveAuditAnnotation('policy.example.com/image-policy', 'unpinned');
    expect(failure(() => expect(result).toHaveAuditAnnotation('image-policy'))).toContain('did you mean "policy.example.com/image-policy"?');
    const dropped = failure(() => expect(result).toHaveAuditAnnotation('policy.example.com/bad key'));
    expect(dropped).toContain('kube-apiserver dropped it:\n  - policy.example.com/bad key="x": ');
  });

  it('rejects something that is neither result', () => {
    expect(() => expect('x').toHaveAuditAnnotation('k')).toThrow('toHaveAuditAnnotation expects the result of h.call() or h.admit(), got string');
  });
});
