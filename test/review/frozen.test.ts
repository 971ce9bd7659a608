import { objects, review, reviewFromRequest, SeededRandom, type Review } from '../../lib';
import { reviewJson } from '../../lib/call/invoke';
import type { KubeObject, UserInfo } from '../../lib/kube/admission';

// Webhook calls send JSON cached per review and per object, so a review is frozen once it is sent;
// what a test hands the builders is copied, and never frozen.
function frozenThroughout(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const here = Object.isFrozen(value) ? [] : [path];
  return [...here, ...Object.entries(value).flatMap(([key, member]) => frozenThroughout(member, `${path}.${key}`))];
}
function frozenAnywhere(value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const here = Object.isFrozen(value) ? [path] : [];
  return [...here, ...Object.entries(value).flatMap(([key, member]) => frozenAnywhere(member, `${path}.${key}`))];
}

describe('reviews freeze when first sent, and what a test gives them does not', () => {
  const seed = { random: new SeededRandom(8) };
  const inputs = () => {
    const pod = objects.pod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' } }, seed);
    return {
      pod,
      changed: { ...structuredClone(pod), metadata: { ...structuredClone(pod.metadata), labels: { app: 'web', tier: 'front' } } } as KubeObject,
      deployment: objects.deployment({ name: 'web', namespace: 'shop' }, { ...seed, stored: true }),
      namespace: objects.namespace({ name: 'shop' }, { ...seed, stored: true }),
      serviceAccount: objects.serviceAccount({ name: 'builder', namespace: 'shop' }, { ...seed, stored: true }),
      userInfo: { username: 'alice', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a'] } } as UserInfo,
      patch: { metadata: { labels: { tier: 'back' } } },
    };
  };
  type Inputs = ReturnType<typeof inputs>;
  // What a call does with a review: its JSON, as sent to a webhook and as a dispatcher's view of it.
  const send = (r: Review): void => {
    const a = r.attributes;
    reviewJson(a, 'v1', 'u');
    reviewJson(a, 'v1', 'u', { kind: a.kind, resource: a.resource, subResource: a.subResource, object: a.object, oldObject: a.oldObject });
  };
  const builders: Record<string, (i: Inputs) => Review[]> = {
    create: (i) => [review.create(i.pod, { userInfo: i.userInfo })],
    update: (i) => [review.update(i.pod, i.changed, { userInfo: i.userInfo })],
    patch: (i) => [review.patch(i.pod, i.patch, { userInfo: i.userInfo })],
    apply: (i) => [review.apply(i.pod, { userInfo: i.userInfo })],
    delete: (i) => [review.delete(i.pod, { userInfo: i.userInfo })],
    deleteCollection: (i) => review.deleteCollection([i.pod, i.changed], { userInfo: i.userInfo }),
    exec: (i) => [review.exec(i.pod, ['sh', '-c', 'id'], { userInfo: i.userInfo })],
    attach: (i) => [review.attach(i.pod, { userInfo: i.userInfo })],
    portForward: (i) => [review.portForward(i.pod, { ports: [8080], userInfo: i.userInfo })],
    proxy: (i) => [review.proxy(i.pod, { port: 8080, userInfo: i.userInfo })],
    status: (i) => [review.status(i.pod, { phase: 'Running' }, { userInfo: i.userInfo })],
    scale: (i) => [review.scale(i.deployment, 3, { userInfo: i.userInfo })],
    evict: (i) => [review.evict(i.pod, { userInfo: i.userInfo, deleteOptions: { gracePeriodSeconds: 5 } })],
    bind: (i) => [review.bind(i.pod, 'node-1', { userInfo: i.userInfo })],
    token: (i) => [review.token(i.serviceAccount, { audiences: ['api'], userInfo: i.userInfo })],
    debug: (i) => [review.debug(i.pod, { userInfo: i.userInfo })],
    finalize: (i) => [review.finalize(i.namespace, { finalizers: ['kubernetes'], userInfo: i.userInfo })],
    resize: (i) => [review.resize(i.pod, { app: { limits: { cpu: '1' } } }, { userInfo: i.userInfo })],
    'dryRun and as': (i) => [review.create(i.pod).dryRun().as(i.userInfo)],
  };

  it.each(Object.entries(builders))('%s', (_name, build) => {
    const given = inputs();
    const made = build(given);
    expect(made.length).toBeGreaterThan(0);
    for (const r of made) {
      expect(frozenAnywhere(r.attributes)).toEqual([]);
      send(r);
      expect(frozenThroughout(r.attributes)).toEqual([]);
    }
    expect(frozenAnywhere(given)).toEqual([]);
  });

  it('copies a captured request instead of freezing it', () => {
    const captured = structuredClone(review.update(inputs().pod, inputs().changed).attributes) as unknown as Record<string, unknown>;
    const request = { uid: 'u', requestKind: captured.kind, requestResource: captured.resource, ...captured };
    const r = reviewFromRequest(request, 'captured.json');
    send(r);
    expect(frozenThroughout(r.attributes)).toEqual([]);
    expect(frozenAnywhere(request)).toEqual([]);
  });

  it('refuses a change to a review once it is sent', () => {
    const r = review.create(inputs().pod);
    send(r);
    expect(() => {
      (r.attributes.object!.metadata as Record<string, unknown>).name = 'other';
    }).toThrow(TypeError);
    expect(r.attributes.object!.metadata!.name).toBe('web-1');
  });
});
