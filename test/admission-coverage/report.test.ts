import {
  belowThreshold,
  CoverageCollector,
  mergeSummaries,
  type CoverageDecision,
  type CoverageRequest,
  type CoverageSummary,
} from '../../lib/admission-coverage';
import type { WebhookEntry } from '../../lib/config/load';
import { mutatingEntry, podsCreateUpdate, rule, validatingEntry } from './helpers';

const pods = { group: '', version: 'v1', resource: 'pods' };
const request = (fields: Partial<CoverageRequest> = {}): CoverageRequest => ({
  operation: 'CREATE',
  resource: pods,
  subResource: '',
  namespace: 'shop',
  dryRun: false,
  ...fields,
});
const called: CoverageDecision = { outcome: 'called', predicates: {} };

function twoWebhooks(): { sidecar: WebhookEntry; policy: WebhookEntry; coverage: CoverageCollector } {
  const sidecar = mutatingEntry({ name: 'sidecar.mesh.io', rules: [rule(['CREATE'], ['pods'])] }, 'mesh');
  const policy = validatingEntry(
    {
      name: 'image-policy.example.com',
      namespaceSelector: { matchLabels: { env: 'prod' } },
      rules: [rule(['CREATE', 'UPDATE'], ['pods']), rule(['CONNECT'], ['pods/exec'])],
    },
    'pod-policy',
  );
  return { sidecar, policy, coverage: new CoverageCollector([sidecar, policy]) };
}

describe('the coverage table', () => {
  it('has one row per webhook under the total, each followed by its uncovered cells', () => {
    const { sidecar, policy, coverage } = twoWebhooks();
    coverage.record({ webhook: sidecar, request: request(), decision: called });
    coverage.record({ webhook: sidecar, request: request({ dryRun: true }), decision: called });
    coverage.record({ webhook: policy, request: request(), decision: { outcome: 'called', predicates: { namespaceSelector: 'matched' } } });
    coverage.record({ webhook: policy, request: request({ operation: 'DELETE' }), decision: called });
    expect(coverage.toTable()).toBe(
      [
        'Admission webhook                               | Cells | % Covered',
        '------------------------------------------------|-------|----------',
        'All webhooks                                    |  6/10 |     60.00',
        ' mutating mesh/sidecar.mesh.io                  |   3/3 |    100.00',
        ' validating pod-policy/image-policy.example.com |   3/7 |     42.86',
        '     UPDATE pods [Namespaced]',
        '     CONNECT pods/exec [Namespaced]',
        '     namespaceSelector: not matched',
        '     dryRun: true',
        '     outside its rules: DELETE pods [Namespaced]',
      ].join('\n'),
    );
  });

  it('prints a webhook whose registration matches nothing as fully covered: it has nothing to exercise', () => {
    const dead = validatingEntry({
      name: 'old.example.com',
      rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1beta1'], resources: ['deployments'] }],
    });
    expect(new CoverageCollector([dead]).toTable()).toBe(
      [
        'Admission webhook                  | Cells | % Covered',
        '-----------------------------------|-------|----------',
        'All webhooks                       |   0/0 |    100.00',
        ' validating policy/old.example.com |   0/0 |    100.00',
      ].join('\n'),
    );
  });
});

describe('thresholds', () => {
  const { sidecar, policy, coverage } = twoWebhooks();
  coverage.record({ webhook: sidecar, request: request(), decision: called });
  coverage.record({ webhook: sidecar, request: request({ dryRun: true }), decision: called });
  coverage.record({ webhook: policy, request: request(), decision: { outcome: 'called', predicates: { namespaceSelector: 'matched' } } });

  it('is met by every webhook, or not (each webhook by default)', () => {
    expect(coverage.meetsThreshold(40)).toBe(true);
    expect(coverage.meetsThreshold(50)).toBe(false);
    expect(belowThreshold(coverage.summary(), 50).map((w) => w.name)).toEqual(['image-policy.example.com']);
  });

  it('can count all cells together', () => {
    // 6 of 10.
    expect(coverage.meetsThreshold(60, { of: 'total' })).toBe(true);
    expect(coverage.meetsThreshold(60.01, { of: 'total' })).toBe(false);
  });

  it('compares the exact ratio, not the rounded percentage', () => {
    const entry = validatingEntry({ name: 'w.example.com', rules: [rule(['CREATE'], ['pods'])] });
    const twoOfThree = new CoverageCollector([entry]);
    twoOfThree.record({ webhook: entry, request: request(), decision: called });
    expect(twoOfThree.summary()).toMatchObject({ covered: 2, total: 3, percent: 66.67 });
    expect(twoOfThree.meetsThreshold(66.66)).toBe(true);
    expect(twoOfThree.meetsThreshold(66.67)).toBe(false);
  });

  it('refuses a threshold that is no percentage', () => {
    expect(() => coverage.meetsThreshold(101)).toThrow('coverage threshold 101 is not a percentage');
    expect(() => coverage.meetsThreshold(Number.NaN)).toThrow(/not a percentage/);
  });
});

describe('JSON and merging', () => {
  it('writes the summary as JSON, which merges back into the same summary', () => {
    const { sidecar, coverage } = twoWebhooks();
    coverage.record({ webhook: sidecar, request: request(), decision: called });
    const json = JSON.parse(JSON.stringify(coverage)) as CoverageSummary;
    expect(json).toEqual(coverage.summary());
    expect(mergeSummaries([json])).toEqual(coverage.summary());
  });

  it('merges the collectors of several workers: a cell is covered if any covered it; seen cells are all kept', () => {
    const wildcard = validatingEntry({ name: 'labels.example.com' });
    const first = new CoverageCollector([podsCreateUpdate(), wildcard]);
    const second = new CoverageCollector([podsCreateUpdate(), wildcard]);
    first.record({ webhook: podsCreateUpdate(), request: request(), decision: called });
    second.record({ webhook: podsCreateUpdate(), request: request({ operation: 'UPDATE', dryRun: true }), decision: called });
    first.record({ webhook: wildcard, request: request(), decision: called });
    second.record({
      webhook: wildcard,
      request: request({ resource: { group: '', version: 'v1', resource: 'configmaps' }, operation: 'DELETE' }),
      decision: called,
    });
    const merged = mergeSummaries([first.toJSON(), second.toJSON()]);
    expect(merged.webhooks.map((w) => [w.name, w.covered, w.total])).toEqual([
      ['pods.example.com', 4, 4],
      ['labels.example.com', 4, 9],
    ]);
    expect(merged.webhooks[1]?.uncovered).toEqual([
      'CREATE configmaps [Namespaced]',
      'UPDATE configmaps [Namespaced]',
      'UPDATE pods [Namespaced]',
      'DELETE pods [Namespaced]',
      'dryRun: true',
    ]);
    expect(merged).toMatchObject({ covered: 8, total: 13, percent: 61.54 });
  });
});
