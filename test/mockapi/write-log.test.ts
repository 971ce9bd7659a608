import { objects, review } from '../../lib/review';
import { admissionSummary, startMockApi, type AdmissionSummary, type MockApi } from '../../lib/mockapi';
import { call, configMap } from './client';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 9, namespaces: [{ name: 'team-a' }] });
});
afterEach(() => api.writes.clear());
afterAll(() => api.close());

const CM = '/api/v1/namespaces/team-a/configmaps';
const summary = (dryRun: boolean, uid: string): AdmissionSummary => ({
  uid,
  operation: 'CREATE',
  resource: 'pods',
  namespace: 'team-a',
  name: 'web',
  dryRun,
  seed: 9,
});

it('records every mutating call with method, path, object and the admission request in flight', async () => {
  const admission = summary(false, 'uid-1');
  await api.during(admission, () => call(api, 'POST', CM, configMap('made')));
  await call(api, 'GET', `${CM}/made`);
  expect(api.writes.records).toEqual([
    {
      verb: 'create',
      method: 'POST',
      path: CM,
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: 'team-a',
      name: '',
      dryRun: false,
      code: 201,
      request: configMap('made'),
      response: expect.objectContaining({ kind: 'ConfigMap', metadata: expect.objectContaining({ name: 'made', uid: expect.any(String) }) }),
      admission: [admission],
    },
  ]);
  expect(api.writes.of('uid-1')).toHaveLength(1);
  expect(api.writes.of(admission)).toHaveLength(1);
});

it('reports a write made while a dryRun request was in flight, with that request summary', async () => {
  const admission = summary(true, 'uid-dry');
  // A careless webhook: it creates the object even though the request is a dry run.
  await api.during(admission, () => call(api, 'POST', CM, configMap('side-effect')));
  const [effect] = api.writes.sideEffectsOf('uid-dry');
  expect(effect).toMatchObject({
    verb: 'create',
    dryRun: false,
    code: 201,
    admission: [{ uid: 'uid-dry', operation: 'CREATE', resource: 'pods', dryRun: true, seed: 9 }],
  });
});

it('flags dry-run writes, which are no side effects', async () => {
  const admission = summary(true, 'uid-careful');
  await api.during(admission, async () => {
    await call(api, 'POST', `${CM}?dryRun=All`, configMap('rehearsed'));
    await call(api, 'DELETE', `${CM}/none`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
  });
  expect(api.writes.of(admission).map((w) => [w.verb, w.dryRun, w.code])).toEqual([
    ['create', true, 201],
    ['delete', true, 404],
  ]);
  expect(api.writes.sideEffectsOf(admission)).toEqual([]);
});

it('records failed and faulted writes too, and writes outside any request with no admission', async () => {
  api.faults.inject({ verb: 'patch', networkError: true, times: 1 });
  await expect(fetch(`${api.url}${CM}/x`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{}' })).rejects.toThrow(
    TypeError,
  );
  await call(api, 'PUT', `${CM}/missing`, configMap('missing'));
  expect(api.writes.records.map((w) => [w.verb, w.code, w.admission])).toEqual([
    ['patch', undefined, []],
    ['update', 404, []],
  ]);
});

it('attributes a write to every request in flight when webhook calls overlap', async () => {
  const first = summary(false, 'a');
  const second = summary(true, 'b');
  await Promise.all([api.during(first, () => api.during(second, () => call(api, 'POST', CM, configMap('overlap')))), Promise.resolve()]);
  expect(api.writes.records[0]?.admission).toEqual([first, second]);
});

it('does not log reviews, which store nothing', async () => {
  await call(api, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
  expect(api.writes.records).toEqual([]);
});

it('summarizes a review the harness is about to send', () => {
  const attributes = review.create(objects.pod({ name: 'web', namespace: 'team-a' })).dryRun().attributes;
  expect(admissionSummary(attributes, { uid: 'u', seed: 1 })).toEqual({
    uid: 'u',
    operation: 'CREATE',
    resource: 'pods',
    namespace: 'team-a',
    name: 'web',
    dryRun: true,
    seed: 1,
  });
});
