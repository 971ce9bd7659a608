import type { RuleWithOperations } from '../../lib/kube/webhook-config';
import { ruleMatches, type RuleSubject } from '../../lib/match/rules';

const pods = (sub = '', namespace = 'default'): RuleSubject => ({
  operation: 'CREATE',
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: sub,
  namespace,
});
const all = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'] };

describe('rules (apiserver predicates/rules)', () => {
  it.each<[string, RuleWithOperations, RuleSubject, boolean]>([
    ['* matches the main resource', { ...all, resources: ['*'] }, pods(), true],
    ['* matches no subresource', { ...all, resources: ['*'] }, pods('status'), false],
    ['*/* matches subresources', { ...all, resources: ['*/*'] }, pods('status'), true],
    ['*/* matches main resources', { ...all, resources: ['*/*'] }, pods(), true],
    ['pods/* matches pods itself', { ...all, resources: ['pods/*'] }, pods(), true],
    ['pods/* matches pods/exec', { ...all, resources: ['pods/*'] }, pods('exec'), true],
    ['*/status matches pods/status', { ...all, resources: ['*/status'] }, pods('status'), true],
    ['*/status does not match pods', { ...all, resources: ['*/status'] }, pods(), false],
    ['pods matches only the main resource', { ...all, resources: ['pods'] }, pods('status'), false],
    ['pods/status/x is resource pods, subresource status/x', { ...all, resources: ['pods/status/x'] }, pods('status'), false],
    ['operation must match', { ...all, operations: ['UPDATE'], resources: ['*'] }, pods(), false],
    ['group must match', { ...all, apiGroups: ['apps'], resources: ['*'] }, pods(), false],
    ['core group is ""', { ...all, apiGroups: [''], resources: ['*'] }, pods(), true],
    ['version must match', { ...all, apiVersions: ['v2'], resources: ['*'] }, pods(), false],
    ['empty lists match nothing', { resources: ['*'] }, pods(), false],
  ])('%s', (_label, rule, subject, expected) => {
    expect(ruleMatches(rule, subject)).toBe(expected);
  });

  const namespaces = (namespace: string): RuleSubject => ({
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'namespaces' },
    subResource: '',
    namespace,
  });
  const nodes: RuleSubject = { operation: 'CREATE', resource: { group: '', version: 'v1', resource: 'nodes' }, subResource: '', namespace: '' };

  it.each<[string, RuleWithOperations['scope'], RuleSubject, boolean]>([
    ['Namespaced matches a namespaced request', 'Namespaced', pods(), true],
    ['Namespaced does not match a cluster-scoped request', 'Namespaced', nodes, false],
    ['Namespaced does not match a namespace, though it carries its own name', 'Namespaced', namespaces('team-a'), false],
    ['Cluster matches a cluster-scoped request', 'Cluster', nodes, true],
    ['Cluster matches a namespace', 'Cluster', namespaces('team-a'), true],
    ['Cluster does not match a namespaced request', 'Cluster', pods(), false],
    ['* matches both', '*', pods(), true],
  ])('scope: %s', (_label, scope, subject, expected) => {
    expect(ruleMatches({ ...all, resources: ['*'], scope }, subject)).toBe(expected);
  });
});
