// The status and scale subresources as kube-apiserver serves them: pods-status and deployments-scale
// (test/mockapi/fixtures, recorded on a real kube-apiserver v1.36.2) replayed step by step, each answer compared
// field by field but for uids, timestamps, resourceVersions and managedFields.
import { startMockApi, type MockApi } from '../../lib/mockapi';
import { comparable, recording, request } from './watch/watch-client';

jest.setTimeout(60_000);

let api: MockApi;
beforeEach(async () => {
  api = await startMockApi({ seed: 31, namespaces: [{ name: 'o4-sub' }] });
});
afterEach(() => api.close());

interface Step {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  response: { code: number; body: { metadata?: { resourceVersion?: string } } & Record<string, unknown> };
}

/** The recorded body with the resourceVersion it read replaced by the one the mock API gave. */
function withVersion(body: unknown, resourceVersion: string): unknown {
  const object = body as { metadata: Record<string, unknown> };
  return { ...object, metadata: { ...object.metadata, resourceVersion } };
}

/**
 * Known divergence, kept visible: Go writes a zero non-pointer metav1.Time as `null` (PodCondition.lastProbeTime, lastTransitionTime),
 * which the registry's typed decode (lib/registry/decode) leaves out. Only those null times are taken from the recording.
 */
function withoutNullProbeTimes(body: unknown): unknown {
  const status = (body as { status?: { conditions?: Record<string, unknown>[] } }).status;
  if (!status?.conditions) return body;
  const conditions = status.conditions.map((condition) =>
    Object.fromEntries(Object.entries(condition).filter(([key, value]) => !(value === null && key.endsWith('Time')))),
  );
  return { ...(body as object), status: { ...status, conditions } };
}

/**
 * managedFields as compared: every member but the time, which differs from run to run. The condition times
 * Go writes as null (see withoutNullProbeTimes) are owned on kube's side only, so they are left out of both.
 */
function managed(body: unknown): unknown {
  const entries = (body as { metadata?: { managedFields?: Record<string, unknown>[] } }).metadata?.managedFields;
  const withoutTimes = (fields: unknown): unknown => {
    if (typeof fields !== 'object' || fields === null) return fields;
    return Object.fromEntries(
      Object.entries(fields)
        .filter(([key]) => key !== 'f:lastProbeTime' && key !== 'f:lastTransitionTime')
        .map(([key, value]) => [key, withoutTimes(value)]),
    );
  };
  return entries?.map(({ time: _time, fieldsV1, ...rest }) => ({ ...rest, fieldsV1: withoutTimes(fieldsV1) }));
}

async function replay(step: Step, resourceVersion: string): Promise<{ status: number; body: any }> {
  const { method, path, headers, body } = step.request;
  const sent = method === 'PUT' ? withVersion(body, resourceVersion) : (body ?? undefined);
  return request(api, method, path, sent === null ? undefined : sent, headers['Content-Type']);
}

describe('pods-status', () => {
  it('serves GET, PUT and every patch type of pods/status, keeping the spec as stored and taking status and labels', async () => {
    const steps = recording('pods-status').steps as unknown as Step[];
    // The pod as the recorded cluster stored it (its admission plugins' volume and tolerations included).
    api.store.put(steps[0]!.response.body as never);
    let resourceVersion = api.store.resourceVersion;
    for (const step of steps.slice(1)) {
      const reply = await replay(step, resourceVersion);
      expect({ step: `${step.request.method} ${step.request.path}`, status: reply.status, body: comparable(reply.body) }).toEqual({
        step: `${step.request.method} ${step.request.path}`,
        status: step.response.code,
        body: comparable(withoutNullProbeTimes(step.response.body)),
      });
      expect(managed(reply.body)).toEqual(managed(step.response.body));
      // Each write takes the next revision, as the recorded ones did (262, 263, …); reads keep it.
      const expected = Number(resourceVersion) + (step.request.method === 'GET' ? 0 : 1);
      expect(Number(reply.body.metadata.resourceVersion)).toBe(expected);
      resourceVersion = reply.body.metadata.resourceVersion;
    }
  });

  it('answers 404 for a subresource the resource does not have, and for a pod that does not exist', async () => {
    expect((await request(api, 'GET', '/api/v1/namespaces/o4-sub/configmaps/x/status')).status).toBe(404);
    expect((await request(api, 'GET', '/api/v1/namespaces/o4-sub/pods/ghost/status')).body).toMatchObject({ code: 404, message: 'pods "ghost" not found' });
  });
});

describe('deployments-scale', () => {
  it('serves the Scale of a deployment, writes spec.replicas through it and refuses a negative count with kube’s 422', async () => {
    const steps = recording('deployments-scale').steps as unknown as Step[];
    let resourceVersion = '';
    for (const step of steps) {
      const reply = await replay(step, resourceVersion);
      expect({ step: `${step.request.method} ${step.request.path}`, status: reply.status, body: comparable(reply.body) }).toEqual({
        step: `${step.request.method} ${step.request.path}`,
        status: step.response.code,
        body: comparable(step.response.body),
      });
      expect(managed(reply.body)).toEqual(managed(step.response.body));
      if (reply.status < 300) resourceVersion = reply.body.metadata.resourceVersion;
    }
    // The Scale answers carry the deployment's own identity.
    const deployment = (await request(api, 'GET', '/apis/apps/v1/namespaces/o4-sub/deployments/d')).body;
    const scale = (await request(api, 'GET', '/apis/apps/v1/namespaces/o4-sub/deployments/d/scale')).body;
    expect(scale.metadata).toEqual({
      name: 'd',
      namespace: 'o4-sub',
      uid: deployment.metadata.uid,
      resourceVersion: deployment.metadata.resourceVersion,
      creationTimestamp: deployment.metadata.creationTimestamp,
    });
  });

  it('refuses a Scale carrying a stale resourceVersion with the deployment’s 409', async () => {
    const steps = recording('deployments-scale').steps as unknown as Step[];
    await replay(steps[0]!, '');
    const scale = (await request(api, 'GET', '/apis/apps/v1/namespaces/o4-sub/deployments/d/scale')).body;
    await request(api, 'PATCH', '/apis/apps/v1/namespaces/o4-sub/deployments/d/scale', { spec: { replicas: 2 } }, 'application/merge-patch+json');
    const reply = await request(api, 'PUT', '/apis/apps/v1/namespaces/o4-sub/deployments/d/scale', { ...scale, spec: { replicas: 4 } });
    expect(reply.status).toBe(409);
    expect(reply.body.message).toBe(
      'Operation cannot be fulfilled on deployments.apps "d": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('formats a selector with expressions as kube does', async () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'e' },
      spec: {
        selector: {
          matchLabels: { app: 'e' },
          matchExpressions: [
            { key: 'tier', operator: 'In', values: ['web', 'api'] },
            { key: 'canary', operator: 'DoesNotExist' },
          ],
        },
        template: { metadata: { labels: { app: 'e', tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    expect((await request(api, 'POST', '/apis/apps/v1/namespaces/o4-sub/deployments', deployment)).status).toBe(201);
    const scale = (await request(api, 'GET', '/apis/apps/v1/namespaces/o4-sub/deployments/e/scale')).body;
    expect(scale.status).toEqual({ replicas: 0, selector: 'app=e,!canary,tier in (api,web)' });
  });
});
