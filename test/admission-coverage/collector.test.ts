import { CoverageCollector, directCallEvent, type CoverageDecision, type CoverageEvent, type CoverageRequest } from '../../lib/admission-coverage';
import type { WebhookEntry } from '../../lib/config/load';
import { podsCreateUpdate, rule, validatingEntry } from './helpers';

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
const event = (webhook: WebhookEntry, req: CoverageRequest, decision: CoverageDecision = called): CoverageEvent => ({ webhook, request: req, decision });

describe('CoverageCollector', () => {
  it('covers the rule and dryRun cells of a called request', () => {
    const entry = podsCreateUpdate();
    const coverage = new CoverageCollector([entry]);
    expect(coverage.record(event(entry, request()))).toBe(true);
    const [webhook] = coverage.summary().webhooks;
    expect(webhook).toMatchObject({
      type: 'validating',
      configuration: 'policy',
      name: 'pods.example.com',
      covered: 2,
      total: 4,
      percent: 50,
      uncovered: ['UPDATE pods [Namespaced]', 'dryRun: true'],
      outside: [],
    });
    expect(coverage.summary()).toMatchObject({ covered: 2, total: 4, percent: 50 });
    expect(coverage.cells('policy/pods.example.com')).toEqual(coverage.cells('validating/policy/pods.example.com'));
    expect(coverage.cells('policy/pods.example.com').map((c) => c.key)).toEqual([
      'CREATE pods [Namespaced]',
      'UPDATE pods [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('a request a selector turned away covers the selector’s cell, not the rule’s', () => {
    const entry = validatingEntry({ name: 'pods.example.com', namespaceSelector: { matchLabels: { env: 'prod' } }, rules: [rule(['CREATE'], ['pods'])] });
    const coverage = new CoverageCollector([entry]);
    coverage.record(
      event(entry, request({ namespace: 'kube-system' }), { outcome: 'skipped', by: 'namespaceSelector', predicates: { namespaceSelector: 'not-matched' } }),
    );
    expect(
      coverage
        .summary()
        .webhooks[0]?.cells.filter((c) => c.covered)
        .map((c) => c.key),
    ).toEqual(['namespaceSelector: not matched']);
  });

  it('a request the rules do not match covers nothing, whichever predicate turned it away first', () => {
    const entry = validatingEntry({ name: 'pods.example.com', namespaceSelector: { matchLabels: { env: 'prod' } }, rules: [rule(['CREATE'], ['pods'])] });
    const coverage = new CoverageCollector([entry]);
    const configmaps = request({ resource: { group: '', version: 'v1', resource: 'configmaps' } });
    coverage.record(event(entry, configmaps, { outcome: 'skipped', by: 'namespaceSelector', predicates: { namespaceSelector: 'not-matched' } }));
    coverage.record(event(entry, request(), { outcome: 'skipped', by: 'rules', predicates: { namespaceSelector: 'matched' } }));
    expect(coverage.summary().covered).toBe(0);
  });

  it('a resource wildcard covers its "any other resource" cell and adds the cells of each resource it showed', () => {
    const entry = validatingEntry({ name: 'labels.example.com', objectSelector: { matchLabels: { managed: 'true' } } });
    const coverage = new CoverageCollector([entry]);
    expect(coverage.summary().total).toBe(5);
    coverage.record(event(entry, request(), { outcome: 'called', predicates: { namespaceSelector: 'matched', objectSelector: 'matched' } }));
    const [webhook] = coverage.summary().webhooks;
    expect(webhook?.cells.map((c) => [c.key, c.covered])).toEqual([
      ['CREATE pods [Namespaced]', true],
      ['UPDATE pods [Namespaced]', false],
      ['DELETE pods [Namespaced]', false],
      ['rules[0] */*: any other resource', true],
      ['objectSelector: matched', true],
      ['objectSelector: not matched', false],
      ['dryRun: false', true],
      ['dryRun: true', false],
    ]);
    expect(webhook?.cells[0]).toMatchObject({ seen: true, rules: [0] });
  });

  it('covers CONNECT pods/exec (never a dry run, so no dryRun: true is left)', () => {
    const entry = validatingEntry({ name: 'exec.example.com', rules: [rule(['CONNECT'], ['pods/exec', 'pods/attach'])] });
    const coverage = new CoverageCollector([entry]);
    coverage.record(event(entry, request({ operation: 'CONNECT', subResource: 'exec' })));
    expect(coverage.summary().webhooks[0]?.uncovered).toEqual(['CONNECT pods/attach [Namespaced]']);
  });

  it('with matchPolicy Equivalent, a request covers the cell of the equivalent resource its rule matched', () => {
    const rules = [{ operations: ['CREATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] }];
    const equivalent = validatingEntry({ name: 'events.example.com', rules });
    const exact = validatingEntry({ name: 'events.example.com', rules, matchPolicy: 'Exact' }, 'exact');
    const coverage = new CoverageCollector([equivalent, exact]);
    const coreEvent = request({ resource: { group: '', version: 'v1', resource: 'events' } });
    coverage.record(event(equivalent, coreEvent));
    coverage.record(event(exact, coreEvent));
    const [viaEquivalent, viaExact] = coverage.summary().webhooks;
    expect(viaEquivalent?.cells.find((c) => c.key === 'CREATE events.events.k8s.io [Namespaced]')?.covered).toBe(true);
    expect(viaExact).toMatchObject({ covered: 0, outside: ['CREATE events [Namespaced]'] });
  });

  it('lists a request sent outside the rules (an h.call) without counting it', () => {
    const entry = podsCreateUpdate();
    const coverage = new CoverageCollector([entry]);
    coverage.record(directCallEvent(entry, request({ operation: 'DELETE' })));
    coverage.record(directCallEvent(entry, request({ resource: { group: 'apps', version: 'v1', resource: 'deployments' } })));
    expect(coverage.summary().webhooks[0]).toMatchObject({
      covered: 0,
      total: 4,
      outside: ['CREATE deployments.apps [Namespaced]', 'DELETE pods [Namespaced]'],
    });
  });

  it('records each matchCondition’s result, when the rules match', () => {
    const entry = validatingEntry({
      name: 'pods.example.com',
      rules: [rule(['CREATE'], ['pods'])],
      matchConditions: [
        { name: 'a', expression: 'true' },
        { name: 'b', expression: 'object.metadata.name != "x"' },
      ],
    });
    const coverage = new CoverageCollector([entry]);
    coverage.record(
      event(entry, request(), {
        outcome: 'called',
        predicates: {
          matchConditions: [
            { name: 'a', result: 'true' },
            { name: 'b', result: 'true' },
          ],
        },
      }),
    );
    coverage.record(event(entry, request(), { outcome: 'skipped', by: 'matchConditions', predicates: { matchConditions: [{ name: 'b', result: 'false' }] } }));
    coverage.record(
      event(entry, request(), {
        outcome: 'skipped',
        by: 'matchConditions',
        predicates: {
          matchConditions: [
            { name: 'a', result: 'true' },
            { name: 'b', result: 'error' },
            { name: 'unknown', result: 'true' },
          ],
        },
      }),
    );
    expect(coverage.summary().webhooks[0]?.uncovered).toEqual(['matchCondition a: false', 'matchCondition a: error', 'dryRun: true']);
  });

  it('ignores events of webhooks it was not given (an inline h.call webhook)', () => {
    const coverage = new CoverageCollector([podsCreateUpdate()]);
    expect(coverage.record({ webhook: { type: 'validating', configuration: 'other', name: 'pods.example.com' }, request: request(), decision: called })).toBe(
      false,
    );
    expect(coverage.record({ webhook: { type: 'mutating', configuration: 'policy', name: 'pods.example.com' }, request: request(), decision: called })).toBe(
      false,
    );
    expect(coverage.record({ webhook: { type: 'validating', configuration: 'policy', name: 'pods.example.com' }, request: request(), decision: called })).toBe(
      true,
    );
  });

  it('covers a group-wildcard rule’s unknown resource, and a request the catalog did not foresee, as seen cells', () => {
    const entry = validatingEntry({
      name: 'w.example.com',
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['widgets', 'pods/exec'] }],
    });
    const coverage = new CoverageCollector([entry]);
    coverage.record(event(entry, request({ resource: { group: 'example.com', version: 'v1', resource: 'widgets' } })));
    // The catalog says pods/exec is only CONNECTed; a CREATE of it, sent anyway, is kept as what it is.
    coverage.record(directCallEvent(entry, request({ subResource: 'exec' })));
    expect(coverage.summary().webhooks[0]?.cells.map((c) => [c.key, c.covered, 'seen' in c])).toEqual([
      ['CREATE pods/exec [Namespaced]', true, true],
      ['CONNECT pods/exec [Namespaced]', false, false],
      ['* widgets.* [*]', true, false],
      ['dryRun: false', true, false],
      ['dryRun: true', false, false],
    ]);
  });

  it('gives the same summary whatever order the events come in', () => {
    const entry = validatingEntry({ name: 'labels.example.com', namespaceSelector: { matchLabels: { env: 'prod' } } });
    const events = [
      event(entry, request({ dryRun: true }), { outcome: 'called', predicates: { namespaceSelector: 'matched' } }),
      event(entry, request({ resource: { group: 'apps', version: 'v1', resource: 'deployments' }, operation: 'UPDATE' })),
      event(entry, request({ resource: { group: '', version: 'v1', resource: 'nodes' }, namespace: '' }), {
        outcome: 'called',
        predicates: { namespaceSelector: 'not-applicable' },
      }),
      event(entry, request({ namespace: 'dev' }), { outcome: 'skipped', by: 'namespaceSelector', predicates: { namespaceSelector: 'not-matched' } }),
    ];
    const forward = new CoverageCollector([entry]);
    const backward = new CoverageCollector([entry]);
    events.forEach((e) => forward.record(e));
    [...events].reverse().forEach((e) => backward.record(e));
    expect(JSON.stringify(backward)).toEqual(JSON.stringify(forward));
    // The wildcard, both selector cells, dryRun × 2, and C/U/D of each of the three resources seen.
    expect(forward.summary().webhooks[0]).toMatchObject({ covered: 8, total: 14 });
  });
});
