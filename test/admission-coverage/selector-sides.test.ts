// Both sides of a selector: a namespace (or labels) the match stage's predicate matches and one it does not.
import { namespaceSides, objectSides } from '../../lib/admission-coverage/selector-sides';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

const fresh = { matched: 'ns-in', notMatched: 'ns-out' };
const ns = (namespaceSelector: LabelSelector) => namespaceSides({ namespaceSelector }, fresh);
const obj = (objectSelector: LabelSelector) => objectSides({ objectSelector });

describe('namespaceSides', () => {
  it.each<[string, LabelSelector, unknown, unknown]>([
    ['matchLabels', { matchLabels: { env: 'prod', team: 'a' } }, { name: 'ns-in', labels: { env: 'prod', team: 'a' } }, { name: 'ns-out', labels: {} }],
    [
      'In',
      { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] },
      { name: 'ns-in', labels: { env: 'prod' } },
      { name: 'ns-out', labels: {} },
    ],
    [
      'NotIn',
      { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] },
      { name: 'ns-in', labels: {} },
      { name: 'ns-out', labels: { env: 'dev' } },
    ],
    [
      'Exists',
      { matchExpressions: [{ key: 'injection', operator: 'Exists' }] },
      { name: 'ns-in', labels: { injection: 'enabled' } },
      { name: 'ns-out', labels: {} },
    ],
    [
      'DoesNotExist',
      { matchExpressions: [{ key: 'opt-out', operator: 'DoesNotExist' }] },
      { name: 'ns-in', labels: {} },
      { name: 'ns-out', labels: { 'opt-out': 'true' } },
    ],
    [
      'NotIn on the name label: the name is what fails it',
      { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }] },
      { name: 'ns-in', labels: {} },
      { name: 'kube-system', labels: {} },
    ],
    [
      'In on the name label: the name is what meets it',
      { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['shop'] }] },
      { name: 'shop', labels: {} },
      { name: 'ns-out', labels: {} },
    ],
    [
      'In with a value NotIn forbids, on one key',
      {
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['dev', 'prod'] },
          { key: 'env', operator: 'NotIn', values: ['dev'] },
        ],
      },
      { name: 'ns-in', labels: { env: 'prod' } },
      { name: 'ns-out', labels: {} },
    ],
  ])('%s', (_label, selector, matched, notMatched) => {
    expect(ns(selector)).toEqual({ matched: { made: matched }, notMatched: { made: notMatched } });
  });

  it('says when no namespace can be outside: every namespace carries kubernetes.io/metadata.name, and {} matches all', () => {
    expect(ns({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'Exists' }] }).notMatched).toEqual({
      impossible:
        'every namespace matches namespaceSelector {"matchExpressions":[{"key":"kubernetes.io/metadata.name","operator":"Exists"}]}: each carries the label kubernetes.io/metadata.name',
    });
    expect(ns({}).notMatched).toEqual({ impossible: 'namespaceSelector {} matches every namespace' });
  });

  it('says when no namespace can be inside: requirements that contradict each other', () => {
    const selector = { matchLabels: { env: 'prod' }, matchExpressions: [{ key: 'env', operator: 'DoesNotExist' }] };
    expect(ns(selector)).toEqual({
      matched: { impossible: `no namespace can match namespaceSelector ${JSON.stringify(selector)}: its requirements contradict each other` },
      notMatched: { made: { name: 'ns-out', labels: {} } },
    });
    expect('impossible' in ns({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'DoesNotExist' }] }).matched).toBe(true);
  });
});

describe('objectSides', () => {
  it('makes labels for each operator and says when a side is impossible', () => {
    expect(obj({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] })).toEqual({
      matched: { made: { app: 'web' } },
      notMatched: { made: {} },
    });
    expect(obj({ matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] })).toEqual({ matched: { made: {} }, notMatched: { made: { skip: 'true' } } });
    expect(obj({})).toEqual({ matched: { made: {} }, notMatched: { impossible: 'objectSelector {} matches every object' } });
    expect(
      'impossible' in
        obj({
          matchExpressions: [
            { key: 'a', operator: 'Exists' },
            { key: 'a', operator: 'DoesNotExist' },
          ],
        }).matched,
    ).toBe(true);
  });
});
