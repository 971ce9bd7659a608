import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, configMap, objectOf } from './client';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 11, namespaces: [{ name: 'team-a' }] });
});
afterAll(() => api.close());

const CM = '/api/v1/namespaces/team-a/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/team-a/deployments';
const PODS = '/api/v1/namespaces/team-a/pods';

const deployment = (name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
});

describe('the registry stage of a create', () => {
  it('decodes and defaults the body, sets generation 1 and resets the status of a kind with a status subresource', async () => {
    const reply = await call(api, 'POST', DEPLOYMENTS, { ...deployment('d'), status: { replicas: 7 } });
    expect(reply.status).toBe(201);
    const created = objectOf(reply);
    expect(created.metadata).toMatchObject({ name: 'd', namespace: 'team-a', generation: 1 });
    expect(created.status).toEqual({});
    expect(created.spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'nginx:1.27',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
  });

  it("replaces the client's uid and creationTimestamp with the server's", async () => {
    const reply = await call(api, 'POST', CM, configMap('own-identity', 'team-a', { uid: 'mine', creationTimestamp: '2001-01-01T00:00:00Z' }));
    expect(objectOf(reply).metadata?.uid).not.toBe('mine');
    expect(objectOf(reply).metadata?.creationTimestamp).not.toBe('2001-01-01T00:00:00Z');
  });

  it('drops fields the kind does not have, as the typed decode does', async () => {
    const reply = await call(api, 'POST', CM, { ...configMap('unknown-field'), bogus: true });
    expect(reply.status).toBe(201);
    expect(objectOf(reply)).not.toHaveProperty('bogus');
  });

  it('gives a pod its phase and QoS class (podStrategy.PrepareForCreate), whatever status was sent', async () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] },
      status: { phase: 'Running' },
    };
    const reply = await call(api, 'POST', PODS, pod);
    expect(reply.status).toBe(201);
    expect(objectOf(reply).status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(objectOf(reply).metadata?.generation).toBe(1);
  });

  it("refuses an invalid object with the strategy's 422 and stores nothing", async () => {
    const reply = await call(api, 'POST', DEPLOYMENTS, deployment('bad', -1));
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Deployment.apps "bad" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      reason: 'Invalid',
      details: {
        name: 'bad',
        group: 'apps',
        kind: 'Deployment',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' }],
      },
      code: 422,
    });
    expect((await call(api, 'GET', `${DEPLOYMENTS}/bad`)).status).toBe(404);
  });

  it('names a generateName object with five characters of kube’s alphabet, the same for the same seed', async () => {
    const names: string[] = [];
    for (const seed of [5, 5, 6]) {
      const other = await startMockApi({ seed, namespaces: [{ name: 'team-a' }] });
      try {
        names.push(String(objectOf(await call(other, 'POST', CM, { ...configMap(''), metadata: { generateName: 'gen-' } })).metadata?.name));
      } finally {
        await other.close();
      }
    }
    expect(names[0]).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(names[1]).toBe(names[0]);
    expect(names[2]).not.toBe(names[0]);
  });
});

describe('the registry stage of an update', () => {
  it('keeps the status of a kind with a status subresource and raises generation only when the spec changes', async () => {
    await call(api, 'POST', DEPLOYMENTS, deployment('gen'));
    const stored = objectOf(await call(api, 'GET', `${DEPLOYMENTS}/gen`));
    const relabelled = objectOf(
      await call(api, 'PUT', `${DEPLOYMENTS}/gen`, { ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } }, status: { replicas: 3 } }),
    );
    expect(relabelled.metadata?.generation).toBe(1);
    expect(relabelled.status).toEqual({});
    const scaled = objectOf(await call(api, 'PUT', `${DEPLOYMENTS}/gen`, { ...relabelled, spec: { ...(relabelled.spec as object), replicas: 2 } }));
    expect(scaled.metadata?.generation).toBe(2);
    expect(scaled.metadata?.uid).toBe(stored.metadata?.uid);
  });

  it('validates an update against the stored object (ValidateUpdate)', async () => {
    const stored = objectOf(await call(api, 'GET', `${DEPLOYMENTS}/gen`));
    const reply = await call(api, 'PUT', `${DEPLOYMENTS}/gen`, {
      ...stored,
      spec: { ...(stored.spec as object), selector: { matchLabels: { app: 'other' } } },
    });
    expect(reply.status).toBe(422);
    expect(String(objectOf(reply).message)).toContain('spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable');
  });
});
