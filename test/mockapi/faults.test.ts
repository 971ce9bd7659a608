import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call } from './client';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 7, namespaces: [{ name: 'team-a', labels: { owner: 'alice' } }] });
});
afterEach(() => api.faults.clear());
afterAll(() => api.close());

const NS = '/api/v1/namespaces/team-a';

it('delays matching requests by latencyMs', async () => {
  api.faults.inject({ path: '/api/v1/namespaces/*', verb: 'get', latencyMs: 150 });
  const started = performance.now();
  expect((await call(api, 'GET', NS)).status).toBe(200);
  expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  const other = performance.now();
  await call(api, 'GET', '/api/v1/namespaces');
  expect(performance.now() - other).toBeLessThan(100);
});

it('answers with an HTTP error and a Status whose reason matches the code', async () => {
  api.faults.inject({ verb: 'get', status: 503, message: 'etcd is down' });
  const reply = await call(api, 'GET', NS);
  expect(reply.status).toBe(503);
  expect(reply.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcd is down', reason: 'ServiceUnavailable', code: 503 });
});

it('drops the connection for a network error', async () => {
  api.faults.inject({ path: NS, networkError: true });
  await expect(fetch(`${api.url}${NS}`)).rejects.toThrow(TypeError);
});

it('throttles like API Priority and Fairness: 429, Retry-After and a plain-text body', async () => {
  api.faults.inject({ throttle: { retryAfterSeconds: 3 } });
  const reply = await call(api, 'GET', NS);
  expect(reply.status).toBe(429);
  expect(reply.headers.get('retry-after')).toBe('3');
  expect(reply.body).toBe('Too many requests, please try again later.\n');
});

it('fires `times` times, the most recent matching fault first', async () => {
  api.faults.inject({ status: 500 });
  const once = api.faults.inject({ path: /^\/api\/v1\/namespaces\/team-a$/, status: 429, times: 1 });
  expect((await call(api, 'GET', NS)).status).toBe(429);
  expect((await call(api, 'GET', NS)).status).toBe(500);
  expect(once.hits).toBe(1);
});

it('matches verbs as kube-apiserver names them (list vs get, deletecollection vs delete)', async () => {
  api.faults.inject({ verb: ['list', 'deletecollection'], status: 500 });
  expect((await call(api, 'GET', '/api/v1/namespaces')).status).toBe(500);
  expect((await call(api, 'GET', NS)).status).toBe(200);
});

it('globs: * stays in one segment, ** crosses segments', async () => {
  const one = api.faults.inject({ path: '/api/v1/*', status: 500 });
  expect((await call(api, 'GET', NS)).status).toBe(200);
  one.remove();
  api.faults.inject({ path: '/api/**', status: 500 });
  expect((await call(api, 'GET', NS)).status).toBe(500);
});

it('refuses a fault with two outcomes, or none', () => {
  expect(() => api.faults.inject({ status: 500, networkError: true })).toThrow('at most one of status, networkError and throttle');
  expect(() => api.faults.inject({ path: '/api' })).toThrow('a fault needs latencyMs, status, networkError or throttle');
});

it('cancels pending latency at close(), failing the waiting call instead of leaving a timer', async () => {
  const own = await startMockApi({ seed: 8 });
  own.faults.inject({ latencyMs: 60_000 });
  const pending = fetch(`${own.url}/api/v1/namespaces`);
  const failed = expect(pending).rejects.toThrow(TypeError);
  await new Promise((resolve) => setTimeout(resolve, 20));
  await own.close();
  await failed;
  // Two mock APIs intercept through one shared msw interceptor: closing one leaves the other answering.
  expect((await call(api, 'GET', NS)).status).toBe(200);
});
