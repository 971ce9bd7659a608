// PodTopologyLabels and ServiceAccount's mountable secrets in the default chain, as a real
// kube-apiserver v1.36.2 ran them (recordings copied into test/plugins/fixtures/apiserver-plugins-more,
// README.md there): every write replayed through h.admit on the objects the recording stored, with the
// recorded outcome, code and exact message, what the observer webhook received, and the stored object.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { review, type Harness } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { expectObserverSawRecorded, FIXTURES, load, namespace, received, recordedCluster, refusal, replay, type Recording } from './recorded-plugins';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

async function cluster(recording: Recording, objects: KubeObject[]) {
  const h = await recordedCluster(recording, objects);
  harnesses.push(h);
  return h;
}

// The node the topology recordings bind to, as topology-labels-binding created it: zone and region
// besides labels no pod gets (topology.k8s.io/*, a custom and a sub-domain key, the hostname).
const node = load('topology-labels-binding').steps[0]!.request.body!;
const withoutNodeCreate = (recording: Recording): Recording => ({
  ...recording,
  steps: recording.steps.filter((step) => step.request.path !== '/api/v1/nodes'),
});

describe('PodTopologyLabels', () => {
  it('topology-labels-binding: the Binding gets only the node’s topology.kubernetes.io/zone and region, which the webhook sees on the Binding and the pod keeps', async () => {
    const recording = load('topology-labels-binding');
    const h = await cluster(recording, [namespace('o4-topo'), node]);
    await replay(h, withoutNodeCreate(recording));
    expectObserverSawRecorded(h.observed(), recording);
    expect(received(recording)[1]).toMatchObject({
      kind: 'Binding',
      metadata: { labels: { 'topology.kubernetes.io/zone': 'zone-a', 'topology.kubernetes.io/region': 'region-1' } },
    });
  });

  it('topology-labels-binding-with-own-labels: the Binding’s own labels stay; its zone is overwritten by the node’s', async () => {
    const recording = load('topology-labels-binding-with-own-labels');
    const h = await cluster(recording, [namespace('o4-topo'), node]);
    await replay(h, recording);
    expectObserverSawRecorded(h.observed(), recording);
  });

  it('topology-labels-nodename-at-create: a pod created with spec.nodeName gets the labels at create; the webhook sees them on the Pod', async () => {
    const recording = load('topology-labels-nodename-at-create');
    const h = await cluster(recording, [namespace('o4-topo'), node]);
    await replay(h, recording);
    expectObserverSawRecorded(h.observed(), recording);
  });

  it('topology-labels-missing-node: a Binding to a node that does not exist gets no labels; a second Binding to o4-node is labelled before the registry refuses it (409)', async () => {
    const recording = load('topology-labels-missing-node');
    const h = await cluster(recording, [namespace('o4-topo'), node]);
    // The create, the Binding and the GET; the second Binding's 409 is the binding registry's, after admission.
    await replay(h, { ...recording, steps: recording.steps.slice(0, 3) });
    const second = recording.steps[3]!;
    expect(refusal(second.response.body)).toEqual({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on pods/binding "ghost": pod ghost is already assigned to node "no-such-node"',
    });
    const pod = recording.steps[0]!.response.body;
    const admitted = await h.admit(review.bind(pod, 'o4-node', { namespace: 'o4-topo' }));
    expect(admitted).toBeAllowed();
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('ServiceAccount with kubernetes.io/enforce-mountable-secrets', () => {
  const sa = load('sa-enforce-setup');
  // The account and secrets the setup recording created, placed in their namespace.
  const created = sa.steps.slice(0, 3).map((step) => ({ ...step.request.body!, metadata: { ...step.request.body!.metadata, namespace: 'o4-sa' } }));
  const storedPod = sa.steps[3]!.response.body;

  it('sa-enforce-setup: a pod naming the restricted account gets its token volume and is admitted', async () => {
    const h = await cluster(sa, [namespace('o4-sa'), ...created]);
    await replay(h, sa);
    expectObserverSawRecorded(h.observed(), sa);
  });

  it('sa-enforce-create-refusals: a pod create referencing an unlisted secret (envFrom, volume, init container env) or a missing account: 403 Forbidden', async () => {
    const recording = load('sa-enforce-create-refusals');
    const h = await cluster(recording, [namespace('o4-sa'), ...created]);
    await replay(h, recording);
    expectObserverSawRecorded(h.observed(), recording);
  });

  it('sa-enforce-ephemeral-envfrom: an ephemeral container referencing an unlisted secret is a bare 500 after the webhooks; a listed one passes', async () => {
    const recording = load('sa-enforce-ephemeral-envfrom');
    const h = await cluster(recording, [namespace('o4-sa'), ...created]);
    const steps = await replay(h, recording, [storedPod]);
    expect(steps.slice(0, 3).map(({ result }) => refusal(result?.status))).toEqual(
      recording.steps.slice(0, 3).map((step) => ({ code: 500, message: step.response.body.message, reason: undefined })),
    );
    expectObserverSawRecorded(h.observed(), recording);
  });
});

describe('every recording of apiserver-plugins-more is replayed', () => {
  it('names each fixture file in this file or optional-plugins-fixtures.test.ts', () => {
    const sources = ['default-plugins-fixtures.test.ts', 'optional-plugins-fixtures.test.ts']
      .map((file) => readFileSync(path.join(__dirname, file), 'utf8'))
      .join('\n');
    const recordings = readdirSync(FIXTURES)
      .filter((name) => name.endsWith('.json'))
      .map((name) => name.replace(/\.json$/, ''));
    expect(recordings).toHaveLength(18);
    expect(recordings.filter((name) => !sources.includes(`'${name}'`))).toEqual([]);
  });
});
