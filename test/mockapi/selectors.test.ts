import type { KubeObject } from '../../lib/kube/admission';
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { parseFieldSelector, parseLabelSelector } from '../../lib/mockapi/selectors';
import { call, configMap, objectOf } from './client';

const labelled = (labels: Record<string, string>): KubeObject => ({ metadata: { name: 'x', namespace: 'ns', labels } });

describe('parseLabelSelector', () => {
  it.each([
    ['', {}, true],
    ['app=web', { app: 'web' }, true],
    ['app==web', { app: 'db' }, false],
    ['app!=web', {}, true],
    ['app!=web', { app: 'web' }, false],
    ['tier in (a, b)', { tier: 'b' }, true],
    ['tier in (a,b)', {}, false],
    ['tier notin (a,b)', {}, true],
    ['tier notin (a,b)', { tier: 'a' }, false],
    ['legacy', { legacy: '' }, true],
    ['!legacy', { legacy: 'yes' }, false],
    ['app=web,!legacy', { app: 'web' }, true],
    ['app=', { app: '' }, true],
    ['x in (in)', { x: 'in' }, true],
    ['x in (,a)', { x: '' }, true],
    ['replicas>2', { replicas: '3' }, true],
    ['replicas<2', { replicas: '3' }, false],
    ['replicas>2', { replicas: 'many' }, false],
    ['example.com/role=api', { 'example.com/role': 'api' }, true],
  ])('%j on %j → %s', (selector, labels, expected) => {
    expect(parseLabelSelector(selector)(labelled(labels))).toBe(expected);
  });

  it.each([
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b,', "found '', expected: identifier after ','"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['a>b', "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer"],
  ])('refuses %j: %s', (selector, message) => {
    expect(() => parseLabelSelector(selector)).toThrow(message);
  });
});

describe('parseFieldSelector', () => {
  const object: KubeObject = { metadata: { name: 'web', namespace: 'prod' } };

  it.each([
    ['metadata.name=web', true],
    ['metadata.name==web', true],
    ['metadata.name!=web', false],
    ['metadata.namespace=prod,metadata.name=web', true],
    ['metadata.namespace=dev', false],
    ['', true],
  ])('%j → %s', (selector, expected) => {
    expect(parseFieldSelector(selector)(object)).toBe(expected);
  });

  it('refuses fields other than name and namespace, and terms without an operator', () => {
    expect(() => parseFieldSelector('spec.nodeName=n1')).toThrow('"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect(() => parseFieldSelector('metadata.name')).toThrow("invalid selector: 'metadata.name'; can't understand 'metadata.name'");
  });
});

describe('list selectors through the API', () => {
  let api: MockApi;
  beforeAll(async () => {
    api = await startMockApi({ seed: 4, namespaces: [{ name: 'shop' }] });
    for (const [name, env] of [
      ['a', 'prod'],
      ['b', 'dev'],
      ['c', 'prod'],
    ] as const)
      api.store.put(configMap(name, 'shop', { labels: { env } }));
  });
  afterAll(() => api.close());

  const names = async (query: string): Promise<string[]> =>
    (objectOf(await call(api, 'GET', `/api/v1/namespaces/shop/configmaps?${query}`)).items as KubeObject[]).map((item) => item.metadata?.name ?? '');

  it('filters by labelSelector and fieldSelector together', async () => {
    expect(await names(`labelSelector=${encodeURIComponent('env in (prod)')}`)).toEqual(['a', 'c']);
    expect(await names(`labelSelector=env%3Dprod&fieldSelector=${encodeURIComponent('metadata.name!=a')}`)).toEqual(['c']);
  });

  it('answers a selector it cannot parse with 400 BadRequest', async () => {
    expect((await call(api, 'GET', `/api/v1/namespaces/shop/configmaps?labelSelector=${encodeURIComponent('env in')}`)).body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: "unable to parse requirement: found '' expected: '('",
      reason: 'BadRequest',
      code: 400,
    });
  });
});
