// What a harness keeps for coverage until it is read (lib/admission-coverage/coverage-log.ts): an
// admission that says nothing new for coverage is not kept, and coverage reads the same either way.
import { CoverageLog } from '../../lib/admission-coverage/coverage-log';
import type { CoverageRequest, CoverageTraceStep } from '../../lib/admission-coverage';
import { createHarness, objects, review, stub } from '../../lib';
import { mutating, validating } from '../dispatch/helpers';
import { podsCreateUpdate } from './helpers';

const request = (more: Partial<CoverageRequest> = {}): CoverageRequest => ({
  operation: 'CREATE',
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
  namespace: 'shop',
  dryRun: false,
  ...more,
});

const step = (more: Partial<CoverageTraceStep> = {}): CoverageTraceStep => ({
  phase: 'validating',
  configuration: 'policy',
  webhook: 'pods.example.com',
  decision: 'called',
  why: ['rule 0 matches CREATE pods'],
  ...more,
});

const entries = [podsCreateUpdate()];

it('keeps one admission for a run of admissions that each say the same for coverage', () => {
  const log = new CoverageLog();
  expect(log.events(entries)).toEqual([]);
  // Each admission's sentences are new strings of the same text, as the dispatcher makes them.
  for (let i = 0; i < 100; i++) log.admission([step({ why: [['rule', 0, 'matches CREATE pods'].join(' ')] })], request());
  expect(log.events(entries)).toHaveLength(1);
});

it.each<[string, CoverageTraceStep[], CoverageRequest]>([
  ['another operation', [step()], request({ operation: 'UPDATE' })],
  ['another namespace', [step()], request({ namespace: 'other' })],
  ['dryRun', [step()], request({ dryRun: true })],
  ['another subresource', [step()], request({ subResource: 'status' })],
  ['another resource version', [step()], request({ resource: { group: '', version: 'v2', resource: 'pods' } })],
  ['another decision', [step({ decision: 'skipped' })], request()],
  ['another reason', [step({ why: ['rule 0 matches CREATE pods', 'objectSelector matches'] })], request()],
  ['a refusal', [step({ rejection: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 400 } })], request()],
  ['one more step', [step(), step({ webhook: 'other.example.com' })], request()],
])('keeps an admission that differs from the one before it by %s', (_, steps, differing) => {
  const log = new CoverageLog();
  log.admission([step()], request());
  log.admission(steps, differing);
  log.admission([step()], request());
  // The first and the last say the same for coverage, but another admission came between them: all three are kept.
  const alone = (steps: CoverageTraceStep[], r: CoverageRequest): number => {
    const single = new CoverageLog();
    single.admission(steps, r);
    return single.events(entries).length;
  };
  expect(log.events(entries)).toHaveLength(2 * alone([step()], request()) + alone(steps, differing));
});

it('turns admissions into events once, and goes on keeping what comes after a read', () => {
  const log = new CoverageLog();
  log.admission([step()], request());
  const first = log.events(entries);
  expect(log.events(entries)).toEqual(first);
  log.admission([step()], request());
  expect(log.events(entries)).toHaveLength(2);
});

it('gives the same coverage for an object admitted once and for the same object admitted 50 times, calls between included', async () => {
  const manifests = [
    mutating('m', { name: 'm.example.com', rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] } as never),
    validating('v', {
      name: 'v.example.com',
      rules: [{ operations: ['CREATE'], apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['pods', 'deployments'] }],
    } as never),
  ];
  const summaries = [];
  for (const times of [1, 50]) {
    const h = await createHarness({ seed: 5, manifests, stubs: { 'm.example.com': stub.allow(), 'v.example.com': stub.allow() } });
    try {
      const pod = review.create(objects.pod({ name: 'web', namespace: 'default' }, { seed: 5 }));
      const deployment = review.create(objects.deployment({ name: 'api', namespace: 'default' }, { seed: 5 }));
      for (let i = 0; i < times; i++) {
        expect(await h.admit(pod)).toMatchObject({ allowed: true });
        if (i === 10) await h.call('v.example.com', deployment);
      }
      await h.admit(deployment);
      if (times === 1) await h.call('v.example.com', deployment);
      summaries.push(h.coverage().summary());
    } finally {
      await h.close();
    }
  }
  expect(summaries[1]).toEqual(summaries[0]);
  expect(summaries[0]!.webhooks.every((w) => w.covered > 0)).toBe(true);
});
