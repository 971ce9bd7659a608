import { createHarness } from '../../lib/harness';
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
  // A lower bound only: a timer never fires early, however loaded the machine.
  expect(performance.now() - started).toBeGreaterThanOrEqual(140);
});

it('delays only the requests the fault matches, and close() ends a delayed one', async () => {
  const own = await startMockApi({ seed: 7, namespaces: [{ name: 'team-a' }] });
  own.faults.inject({ path: '/api/v1/namespaces/*', verb: 'get', latencyMs: 600_000 });
  let settled = false;
  const held = call(own, 'GET', NS).then(
    () => (settled = true),
    () => (settled = true),
  );
  expect((await call(own, 'GET', '/api/v1/namespaces')).status).toBe(200);
  expect(settled).toBe(false);
  await own.close();
  await held;
  expect(settled).toBe(true);
});

it('answers with an HTTP error and a Status whose reason matches the code', async () => {
  api.faults.inject({ verb: 'get', status: 503, message: 'etcd is down' });
  const reply = await call(api, 'GET', NS);
  expect(reply.status).toBe(503);
  expect(reply.body).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'etcd is down',
    reason: 'ServiceUnavailable',
    code: 503,
  });
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
  const latency = own.faults.inject({ latencyMs: 60_000 });
  const pending = fetch(`${own.url}/api/v1/namespaces`);
  const failed = expect(pending).rejects.toThrow(TypeError);
  // close() once the request waits out its latency (the fault counts it as it starts the wait), however slow
  // the machine: a fixed pause could end before the request arrived, and close() would then end nothing pending.
  while (latency.hits === 0) await new Promise((resolve) => setImmediate(resolve));
  await own.close();
  await failed;
  // Two mock APIs intercept through one shared msw interceptor: closing one leaves the other answering.
  expect((await call(api, 'GET', NS)).status).toBe(200);
});

describe('one clock with the harness', () => {
  it('scales injected latency by the API’s timeScale: an hour of latency at 1/10 000 answers in 360 ms', async () => {
    const fast = await startMockApi({ seed: 9, timeScale: 0.0001 });
    try {
      fast.faults.inject({ path: '/api/v1/namespaces', verb: 'list', latencyMs: 3_600_000 });
      // Unscaled, this call would wait an hour and the test time out.
      expect((await call(fast, 'GET', '/api/v1/namespaces')).status).toBe(200);
      expect(fast.timeScale).toBe(0.0001);
    } finally {
      await fast.close();
    }
  });

  it('gives a mock API the harness starts the harness’s timeScale', async () => {
    const h = await createHarness({ mockApi: true, timeScale: 0.0001, seed: 1 });
    try {
      expect(h.api?.timeScale).toBe(0.0001);
      h.api!.faults.inject({ path: '/api/v1/namespaces', verb: 'list', latencyMs: 60_000 });
      expect((await call(h.api!, 'GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await h.close();
    }
  });

  it('takes the timeScale of a mock API handed over, and refuses a different one', async () => {
    const own = await startMockApi({ seed: 10, timeScale: 0.5 });
    try {
      const h = await createHarness({ mockApi: own, seed: 1 });
      expect(h.timeScale).toBe(0.5);
      await h.close();
      await expect(createHarness({ mockApi: own, timeScale: 0.1, seed: 1 })).rejects.toThrow(
        'the mock API runs at timeScale 0.5 and the harness at 0.1: their delays would follow two clocks\n  hint: start it with startMockApi({ timeScale: 0.1 }), or leave timeScale out of createHarness',
      );
    } finally {
      await own.close();
    }
  });
});
