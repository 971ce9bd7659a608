// The off-by-default plugins as a real kube-apiserver v1.36.2 ran them, all enabled at once with the
// recorder's --admission-control-config-file (recordings copied into
// test/plugins/fixtures/apiserver-plugins-more, README.md there): every write replayed through h.admit
// on the objects the recording stored, with the recorded outcome, code and exact message, what the
// observer webhook received, and the stored object.
import { review, type Authorizer, type Harness } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { expectObserverSawRecorded, load, namespace, observerConfiguration, observerOf, recordedCluster, replay, type Recording } from './recorded-plugins';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

async function replayed(
  name: string,
  objects: KubeObject[],
  options: Parameters<typeof recordedCluster>[2] = {},
): Promise<{ recording: Recording; h: Awaited<ReturnType<typeof recordedCluster>> }> {
  const recording = load(name);
  const h = await recordedCluster(recording, objects, options);
  harnesses.push(h);
  await replay(h, recording);
  return { recording, h };
}

const tolerations = (value: unknown): string => JSON.stringify(value);
const whitelistB = [{ key: 'dedicated', operator: 'Equal', value: 'team-b', effect: 'NoSchedule' }];

describe('AlwaysPullImages', () => {
  it('alwayspullimages-mutation: init and app containers pull Always; an ephemeral container added through pods/ephemeralcontainers keeps its policy', async () => {
    const { recording, h } = await replayed('alwayspullimages-mutation', [namespace('o4-api')]);
    expectObserverSawRecorded(h.observed(), recording);
  });

  it('alwayspullimages-update: a label-only patch brings no new image and passes; a new image with IfNotPresent is set Always, which changes the ephemeral container too: 422', async () => {
    const stored = load('alwayspullimages-mutation').steps[1]!.response.body;
    const recording = load('alwayspullimages-update');
    const h = await recordedCluster(recording, [namespace('o4-api')]);
    harnesses.push(h);
    const labelled = await h.admit(review.patch(stored, recording.steps[0]!.request.body, { type: 'merge' }));
    expect(labelled).toBeAllowed();
    expect(labelled.object?.metadata?.labels).toEqual(recording.steps[0]!.response.body.metadata?.labels);
    // On the pod as the label patch left it.
    const imaged = await h.admit(review.patch(recording.steps[0]!.response.body, recording.steps[1]!.request.body));
    const recorded = recording.steps[1]!.response.body;
    expect(imaged.status).toMatchObject({ code: 422, reason: 'Invalid' });
    // The registry's pod update validation names the fields a pod update may change, then a diff of the internal object.
    const prefix = recorded.message!.split('\n')[0]!;
    expect(imaged.status?.message?.split('\n')[0]).toBe(prefix);
    // Then a diff of what changed: the ephemeral container's pull policy, which the plugin set to Always.
    // kube appends go-cmp's diff of the internal object (randomized on purpose); the harness its own list
    // of changed members (lib/registry/validation/spec-diff.ts).
    expect(recorded.message).toMatch(/^-\s+"?ImagePullPolicy"?:\s+"IfNotPresent",$/m);
    expect(recorded.message).toMatch(/^\+\s+"?ImagePullPolicy"?:\s+"Always",$/m);
    expect(imaged.status?.message).toMatch(/^\s*changed \/spec\/ephemeralContainers\/0\/imagePullPolicy: "IfNotPresent" → "Always"$/m);
    expectObserverSawRecorded(h.observed(), recording);
  });

  it('alwayspullimages-refusal: a webhook that sets IfNotPresent back is overridden, because the plugins run again after a webhook changes the object', async () => {
    const recording = load('alwayspullimages-refusal');
    const patcher = recording.steps[0]!.request.body as KubeObject & { webhooks: Record<string, unknown>[] };
    const h = await recordedCluster(recording, [namespace('o4-api')], {
      manifests: [observerConfiguration(recording) as never, patcher as never],
      stubs: {
        [String(observerOf(recording).name)]: { respond: { allowed: true } },
        [String(patcher.webhooks[0]!.name)]: { respond: { patch: [{ op: 'replace', path: '/spec/containers/0/imagePullPolicy', value: 'IfNotPresent' }] } },
      },
    });
    harnesses.push(h);
    await replay(h, { ...recording, steps: recording.steps.slice(1) });
    expectObserverSawRecorded(h.observed(), recording);
    // The patcher, second, saw the pod AlwaysPullImages had set to Always.
    expectObserverSawRecorded(
      h.stub(String(patcher.webhooks[0]!.name)).received.map((r) => r.request!.object!),
      recording,
      '/admit-pullpolicy?',
    );
  });
});

describe('PodNodeSelector', () => {
  it('podnodeselector-mutation: the namespace’s selector is merged into the pod’s; a namespace without one gets clusterDefaultNodeSelector', async () => {
    const { recording, h } = await replayed('podnodeselector-mutation', [
      namespace('o4-pns', { 'scheduler.alpha.kubernetes.io/node-selector': 'env=dev' }),
      namespace('o4-pns-none'),
    ]);
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('PodTolerationRestriction', () => {
  it('podtolerationrestriction-mutation: the namespace’s default tolerations are merged after the pod’s own; without them the configuration’s default', async () => {
    const { recording, h } = await replayed('podtolerationrestriction-mutation', [
      namespace('o4-ptr', {
        'scheduler.alpha.kubernetes.io/defaultTolerations': tolerations([{ key: 'dedicated', operator: 'Equal', value: 'team-a', effect: 'NoSchedule' }]),
      }),
      namespace('o4-pns-none'),
    ]);
    expectObserverSawRecorded(h.observed(), recording);
  });

  it('podtolerationrestriction-refusal: a whitelist without the not-ready and unreachable tolerations refuses every pod, with a bare 500, before any webhook', async () => {
    const { recording, h } = await replayed('podtolerationrestriction-refusal', [
      namespace('o4-ptr-wl', { 'scheduler.alpha.kubernetes.io/tolerationsWhitelist': tolerations(whitelistB) }),
    ]);
    expect(recording.backendReceived).toEqual([]);
    expect(h.observed()).toEqual([]);
  });

  it('podtolerationrestriction-whitelist-admits: a whitelist with them admits; an empty defaultTolerations overrides the configuration’s default', async () => {
    const notReady = (key: string) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
    const { recording, h } = await replayed('podtolerationrestriction-whitelist-admits', [
      namespace('o4-ptr-wl2', {
        'scheduler.alpha.kubernetes.io/tolerationsWhitelist': tolerations([
          ...whitelistB,
          notReady('node.kubernetes.io/not-ready'),
          notReady('node.kubernetes.io/unreachable'),
        ]),
        'scheduler.alpha.kubernetes.io/defaultTolerations': '[]',
      }),
    ]);
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('ExtendedResourceToleration', () => {
  it('extendedresourcetoleration-mutation: one NoSchedule toleration per extended resource, sorted; one already there is kept', async () => {
    const { recording, h } = await replayed('extendedresourcetoleration-mutation', [namespace('o4-ert')]);
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('DenyServiceExternalIPs', () => {
  it('denyserviceexternalips: a create or patch adding external IPs is refused (403); a label patch passes', async () => {
    const { recording, h } = await replayed('denyserviceexternalips', [namespace('o4-dsx')]);
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('LimitPodHardAntiAffinityTopology', () => {
  it('limitpodhardantiaffinitytopology: required anti-affinity by zone is refused after the webhooks; by hostname, preferred, and pod affinity pass', async () => {
    const { recording, h } = await replayed('limitpodhardantiaffinitytopology', [namespace('o4-aa')]);
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('OwnerReferencesPermissionEnforcement', () => {
  // The recorder's RBAC: alice may do all but delete configmaps in o4-ore, everything on configmaps in
  // o4-ore2 and nothing on deployments/finalizers; the admin may do everything. RBAC gives no reason.
  const rbac: Authorizer = ({ user, verb, resource, subresource, namespace: ns }) => {
    if (user.username !== 'alice') return { decision: 'allow' };
    if (resource === 'configmaps' && subresource === '' && (ns === 'o4-ore2' || verb !== 'delete')) return { decision: 'allow' };
    return { decision: 'noOpinion' };
  };

  it('ownerreferences-permission-enforcement: a create may set an owner; a patch adding one needs delete; blockOwnerDeletion needs the owner’s finalizers', async () => {
    const { recording, h } = await replayed('ownerreferences-permission-enforcement', [namespace('o4-ore'), namespace('o4-ore2')], { authorizer: rbac });
    expectObserverSawRecorded(h.observed(), recording);
  });
});
