import { registrationCells } from '../../lib/admission-coverage';
import { defaultCatalog, type ResourceCatalog } from '../../lib/kube/catalog';
import type { WebhookEntry } from '../../lib/config/load';
import { podsCreateUpdate, rule, validatingEntry } from './helpers';

const keys = (entry: WebhookEntry, catalog: ResourceCatalog = defaultCatalog): string[] => registrationCells(entry.spec, catalog).map((cell) => cell.key);
const everything = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'] };

describe('the cells of a registration', () => {
  it('pods CREATE/UPDATE: operation × resource × scope, and dryRun; no selector cell for the default {}', () => {
    expect(keys(podsCreateUpdate())).toEqual(['CREATE pods [Namespaced]', 'UPDATE pods [Namespaced]', 'dryRun: false', 'dryRun: true']);
  });

  it('expands operations `*` to those the resource admits: pods are never CONNECTed', () => {
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['*'], ['pods'])] }))).toEqual([
      'CREATE pods [Namespaced]',
      'UPDATE pods [Namespaced]',
      'DELETE pods [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('pods/exec and pods/attach under CONNECT, which is never a dry run: no dryRun: true cell', () => {
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['CONNECT'], ['pods/exec', 'pods/attach'])] }))).toEqual([
      'CONNECT pods/attach [Namespaced]',
      'CONNECT pods/exec [Namespaced]',
      'dryRun: false',
    ]);
  });

  it('leaves out the combinations of a rule kube-apiserver never produces (CREATE pods/exec, CONNECT pods)', () => {
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['CREATE', 'CONNECT'], ['pods', 'pods/exec'])] }))).toEqual([
      'CREATE pods [Namespaced]',
      'CONNECT pods/exec [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('expands pods/* to pods itself and every admitted subresource (not the GET-only pods/log)', () => {
    const cells = keys(validatingEntry({ name: 'w.example.com', rules: [rule(['*'], ['pods/*'])] }));
    expect(cells).toEqual([
      'CREATE pods [Namespaced]',
      'UPDATE pods [Namespaced]',
      'DELETE pods [Namespaced]',
      'CONNECT pods/attach [Namespaced]',
      'CREATE pods/binding [Namespaced]',
      'UPDATE pods/ephemeralcontainers [Namespaced]',
      'CREATE pods/eviction [Namespaced]',
      'CONNECT pods/exec [Namespaced]',
      'CONNECT pods/portforward [Namespaced]',
      'CONNECT pods/proxy [Namespaced]',
      'UPDATE pods/resize [Namespaced]',
      'UPDATE pods/status [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
    expect(cells.some((key) => key.includes('pods/log'))).toBe(false);
  });

  it('*/* with selectors: one "any other resource" cell, matched and not matched for each selector', () => {
    const entry = validatingEntry({
      name: 'labels.example.com',
      namespaceSelector: { matchLabels: { env: 'prod' } },
      objectSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
    });
    expect(entry.spec.rules).toEqual([{ ...everything, resources: ['*/*'], scope: '*' }]);
    expect(keys(entry)).toEqual([
      'rules[0] */*: any other resource',
      'namespaceSelector: matched',
      'namespaceSelector: not matched',
      'objectSelector: matched',
      'objectSelector: not matched',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('has no namespaceSelector cells when every request it registers is cluster-scoped, but has them for namespaces', () => {
    const selector = { matchLabels: { env: 'prod' } };
    expect(keys(validatingEntry({ name: 'w.example.com', namespaceSelector: selector, rules: [rule(['CREATE'], ['nodes'])] }))).toEqual([
      'CREATE nodes [Cluster]',
      'dryRun: false',
      'dryRun: true',
    ]);
    expect(keys(validatingEntry({ name: 'w.example.com', namespaceSelector: selector, rules: [rule(['CREATE'], ['namespaces'])] }))).toEqual([
      'CREATE namespaces [Cluster]',
      'namespaceSelector: matched',
      'namespaceSelector: not matched',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('keeps only the resources in the rule’s scope', () => {
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['CREATE'], ['pods', 'nodes', 'namespaces'], { scope: 'Cluster' })] }))).toEqual([
      'CREATE namespaces [Cluster]',
      'CREATE nodes [Cluster]',
      'dryRun: false',
      'dryRun: true',
    ]);
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['CREATE'], ['pods', 'nodes', 'namespaces'], { scope: 'Namespaced' })] }))).toEqual([
      'CREATE pods [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('expands groups and versions against the catalog: one cell per group/resource whatever its versions; exempt kinds and unknown resources', () => {
    const entry = validatingEntry({
      name: 'w.example.com',
      rules: [{ ...everything, resources: ['deployments', 'horizontalpodautoscalers', 'validatingwebhookconfigurations', 'widgets'] }],
    });
    expect(keys(entry)).toEqual([
      // Not in the catalog: the rule alone says what it is, so operations and scope stay `*`.
      '* widgets.* [*]',
      'CREATE deployments.apps [Namespaced]',
      'UPDATE deployments.apps [Namespaced]',
      'DELETE deployments.apps [Namespaced]',
      // autoscaling/v1 and v2 share one set of cells.
      'CREATE horizontalpodautoscalers.autoscaling [Namespaced]',
      'UPDATE horizontalpodautoscalers.autoscaling [Namespaced]',
      'DELETE horizontalpodautoscalers.autoscaling [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('uses the catalog it is given: a CRD registered there has its own operations, scope and subresources', () => {
    const catalog = defaultCatalog.copy();
    catalog.register({ group: 'example.com', version: 'v1', kind: 'Widget', resource: 'widgets', namespaced: true, subresources: [{ name: 'status' }] });
    const entry = validatingEntry({
      name: 'w.example.com',
      rules: [{ operations: ['*'], apiGroups: ['example.com'], apiVersions: ['*'], resources: ['widgets', 'widgets/status'] }],
    });
    expect(keys(entry, catalog)).toEqual([
      'CREATE widgets.example.com [Namespaced]',
      'UPDATE widgets.example.com [Namespaced]',
      'DELETE widgets.example.com [Namespaced]',
      'UPDATE widgets.example.com/status [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('has no cell at all for a registration that can match nothing (a version the cluster does not serve)', () => {
    const entry = validatingEntry({
      name: 'w.example.com',
      namespaceSelector: { matchLabels: { a: 'b' } },
      rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1beta1'], resources: ['deployments'] }],
    });
    expect(keys(entry)).toEqual([]);
  });

  it('gives each matchCondition a true, a false and an error cell, in the conditions’ order', () => {
    const entry = validatingEntry({
      name: 'w.example.com',
      rules: [rule(['CREATE'], ['pods'])],
      matchConditions: [
        { name: 'not-kube-system', expression: "object.metadata.namespace != 'kube-system'" },
        { name: 'has-labels', expression: 'has(object.metadata.labels)' },
      ],
    });
    expect(keys(entry)).toEqual([
      'CREATE pods [Namespaced]',
      'matchCondition not-kube-system: true',
      'matchCondition not-kube-system: false',
      'matchCondition not-kube-system: error',
      'matchCondition has-labels: true',
      'matchCondition has-labels: false',
      'matchCondition has-labels: error',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('merges overlapping rules into one cell naming both, and lists cells the same whatever the rules’ order', () => {
    const a = rule(['CREATE', 'UPDATE'], ['pods']);
    const b = rule(['CREATE'], ['pods', 'configmaps']);
    const forward = registrationCells(validatingEntry({ name: 'w.example.com', rules: [a, b] }).spec, defaultCatalog);
    const backward = registrationCells(validatingEntry({ name: 'w.example.com', rules: [b, a] }).spec, defaultCatalog);
    expect(forward.map((c) => c.key)).toEqual([
      'CREATE configmaps [Namespaced]',
      'CREATE pods [Namespaced]',
      'UPDATE pods [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
    expect(backward.map((c) => c.key)).toEqual(forward.map((c) => c.key));
    expect(forward.find((c) => c.key === 'CREATE pods [Namespaced]')).toEqual({
      dimension: 'rule',
      key: 'CREATE pods [Namespaced]',
      operation: 'CREATE',
      group: '',
      resource: 'pods',
      subResource: '',
      scope: 'Namespaced',
      rules: [0, 1],
    });
  });
});

// Cells the requests of a registration cannot have are no cells: a coverage 100 % cannot reach is useless.
describe('the cells requests cannot have', () => {
  it('has dryRun: true once any registered request is not a CONNECT (a rule of its own, or operations *)', () => {
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['CONNECT'], ['pods/exec']), rule(['CREATE'], ['pods'])] }))).toEqual([
      'CREATE pods [Namespaced]',
      'CONNECT pods/exec [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
    expect(keys(validatingEntry({ name: 'w.example.com', rules: [rule(['*'], ['pods/exec', 'pods/eviction'])] }))).toEqual([
      'CREATE pods/eviction [Namespaced]',
      'CONNECT pods/exec [Namespaced]',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('has no dryRun: true for a CONNECT-only wildcard rule, and has it for a wildcard rule with other operations', () => {
    expect(
      keys(validatingEntry({ name: 'w.example.com', rules: [{ operations: ['CONNECT'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] })),
    ).toEqual(['rules[0] */*: any other resource', 'dryRun: false']);
    expect(
      keys(
        validatingEntry({ name: 'w.example.com', rules: [{ operations: ['CONNECT', 'DELETE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] }),
      ),
    ).toEqual(['rules[0] */*: any other resource', 'dryRun: false', 'dryRun: true']);
  });

  it('has no CONNECT cell under an objectSelector other than {}: the options object has no labels to match', () => {
    const objectSelector = { matchLabels: { app: 'web' } };
    expect(keys(validatingEntry({ name: 'w.example.com', objectSelector, rules: [rule(['CREATE', 'CONNECT'], ['pods', 'pods/exec'])] }))).toEqual([
      'CREATE pods [Namespaced]',
      'objectSelector: matched',
      'objectSelector: not matched',
      'dryRun: false',
      'dryRun: true',
    ]);
    // Even a selector empty labels satisfy: kube-apiserver cannot read labels off the options at all.
    const doesNotExist = { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] };
    expect(
      keys(validatingEntry({ name: 'w.example.com', objectSelector: doesNotExist, rules: [rule(['CREATE', 'CONNECT'], ['pods', 'pods/exec'])] })),
    ).not.toContain('CONNECT pods/exec [Namespaced]');
    // {} matches every object, options included.
    expect(keys(validatingEntry({ name: 'w.example.com', objectSelector: {}, rules: [rule(['CONNECT'], ['pods/exec'])] }))).toEqual([
      'CONNECT pods/exec [Namespaced]',
      'dryRun: false',
    ]);
  });

  it('has no cell at all for a CONNECT-only webhook with an objectSelector: kube-apiserver never calls it', () => {
    const objectSelector = { matchLabels: { app: 'web' } };
    expect(keys(validatingEntry({ name: 'w.example.com', objectSelector, rules: [rule(['CONNECT'], ['pods/exec', 'pods/attach'])] }))).toEqual([]);
    expect(
      keys(
        validatingEntry({
          name: 'w.example.com',
          objectSelector,
          rules: [{ operations: ['CONNECT'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
        }),
      ),
    ).toEqual([]);
  });

  it('keeps DELETE under an objectSelector (the old object carries the labels) and its dry run', () => {
    expect(keys(validatingEntry({ name: 'w.example.com', objectSelector: { matchLabels: { app: 'web' } }, rules: [rule(['DELETE'], ['pods'])] }))).toEqual([
      'DELETE pods [Namespaced]',
      'objectSelector: matched',
      'objectSelector: not matched',
      'dryRun: false',
      'dryRun: true',
    ]);
  });
});

describe('selector sides no namespace or object can be on', () => {
  it('has no "namespaceSelector: not matched" cell when every namespace matches (Exists on kubernetes.io/metadata.name)', () => {
    const namespaceSelector = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }] };
    expect(keys(validatingEntry({ name: 'w.example.com', namespaceSelector, rules: [rule(['CREATE'], ['pods'])] }))).toEqual([
      'CREATE pods [Namespaced]',
      'namespaceSelector: matched',
      'dryRun: false',
      'dryRun: true',
    ]);
  });

  it('has no "matched" cell for a selector whose requirements contradict each other', () => {
    const contradiction = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] };
    expect(keys(validatingEntry({ name: 'w.example.com', objectSelector: contradiction, rules: [rule(['CREATE'], ['pods'])] }))).toEqual([
      'CREATE pods [Namespaced]',
      'objectSelector: not matched',
      'dryRun: false',
      'dryRun: true',
    ]);
  });
});
