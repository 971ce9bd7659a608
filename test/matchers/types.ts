// Type-level checks, run by `tsc --noEmit` and never executed: the matchers are typed on Jest's
// expect, async ones as promises, with the @ts-expect-error lines really being errors.
import type { Harness, HarnessCallOutcome } from '../../lib';
import { objects, review } from '../../lib';

export async function typesCheck(h: Harness, outcome: HarnessCallOutcome): Promise<void> {
  const request = review.create(objects.pod());
  expect(outcome).toHavePatch();
  expect(outcome).toHavePatchOps([{ op: 'add', path: '/metadata/labels/env', value: 'prod' }]);
  expect(outcome).toHavePatchOps(expect.arrayContaining([]));
  // @ts-expect-error an operation needs a path
  expect(outcome).toHavePatchOps([{ op: 'add' }]);
  expect(outcome).toHavePatchedTo({ apiVersion: 'v1', kind: 'Pod' });
  expect(outcome).toLeaveUnchanged();
  expect(outcome).toHaveWarning(/digest/);
  expect(outcome).toHaveAuditAnnotation('key', expect.stringContaining('v'));
  // @ts-expect-error the key is a string
  expect(outcome).toHaveAuditAnnotation(1);
  const idempotent: Promise<void> = expect(h.webhook('w')).toBeIdempotentFor(request, {
    peers: [[{ op: 'add', path: '/a', value: 1 }], { name: 'mesh', ops: [] }],
  });
  await idempotent;
  // @ts-expect-error peers are patches
  await expect(h.webhook('w')).toBeIdempotentFor(request, { peers: ['mesh'] });
  await expect(h.webhook('w')).toRespondWithin('timeoutSeconds', { review: request, concurrency: 2, samples: 10 });
  // @ts-expect-error the review to send is required
  await expect(h.webhook('w')).toRespondWithin(200, {});
  // @ts-expect-error a budget is milliseconds or 'timeoutSeconds'
  await expect(h.webhook('w')).toRespondWithin('10s', { review: request });
  await expect(h).toConvertRoundTrip({ apiVersion: 'stable.example.com/v1', kind: 'Widget' }, 'v2');
  expect(await h.convert([], 'v2')).toFailConversionWith(/must have the same name/);
  // @ts-expect-error the version to go through is required
  await expect(h).toConvertRoundTrip({ apiVersion: 'stable.example.com/v1', kind: 'Widget' });
}
