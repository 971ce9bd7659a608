import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { createApp } from '../../examples/pod-defaults/src/app';
import { mutating } from '../dispatch/helpers';
import { asyncFailure } from './failure';
import {
  MESH_PROXY,
  addsWhatIsMissing,
  appendsSidecarBlindly,
  appendsToLabel,
  checksLastContainerOnly,
  ownsIndexOne,
  rejectsItsOwnLabel,
  serve,
  suffixesSidecarName,
} from '../webhooks/non-idempotent';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    seed: 7,
    target: serve({
      '/blind': appendsSidecarBlindly,
      '/suffixed': suffixesSidecarName(),
      '/label': appendsToLabel,
      '/env': rejectsItsOwnLabel,
      '/last': checksLastContainerOnly,
      '/index-one': ownsIndexOne,
      '/good': addsWhatIsMissing,
    }),
  });
});
afterAll(() => h.close());

const webhook = (path: string) => h.webhook({ type: 'mutating', path, name: `${path.slice(1)}.example.com` });
const pod = () => review.create(objects.pod({ name: 'web-1', namespace: 'shop', labels: { app: 'web' }, images: ['nginx:1.27'] }));
const meshInjector = { name: 'mesh-injector', ops: [{ op: 'add', path: '/spec/containers/-', value: MESH_PROXY }] };

describe('toBeIdempotentFor: the documentation’s non-idempotent webhooks', () => {
  it('catches a sidecar appended without checking for it', async () => {
    const message = await asyncFailure(() => expect(webhook('/blind')).toBeIdempotentFor(pod()));
    expect(message).toContain(
      'expected blind.example.com to leave its own output unchanged when called again, but:\n  - second call added /spec/containers/2 (foo-sidecar) again\n',
    );
    expect(message).toContain('Round 1 (the review as given):\n  Changes:\n    added /spec/containers/1 (foo-sidecar): {"name":"foo-sidecar"');
    expect(message).toContain("Round 2 (round 1's output):\n  Changes:\n    added /spec/containers/2 (foo-sidecar)");
    expect(message).toContain('  Request:  CREATE pods shop/web-1 → blind.example.com [admission.k8s.io/v1] · seed 7');
    expect(message).toContain('  Patch:    [{"op":"add","path":"/spec/containers/-"');
    expect(message).toContain('reinvocationPolicy: IfNeeded');
  });

  it('catches a sidecar whose name changes on every call', async () => {
    const message = await asyncFailure(() => expect(webhook('/suffixed')).toBeIdempotentFor(pod()));
    expect(message).toContain(
      '  - second call added /spec/containers/2 (foo-sidecar-2) again: the same as /spec/containers/1 (foo-sidecar-1) from the first call but for its name; a name that changes on every call (a timestamp, counter or random suffix) keeps the webhook from recognising what it already added',
    );
  });

  it('catches a label derived from its own current value', async () => {
    const message = await asyncFailure(() => expect(webhook('/label')).toBeIdempotentFor(pod()));
    expect(message).toContain('    added /metadata/labels/track: "stable-canary"');
    expect(message).toContain(
      '  - second call changed /metadata/labels/track again: "stable-canary" → "stable-canary-canary" (the new value is built from the current one, so every call changes it)',
    );
  });

  it('catches a webhook that rejects its own output', async () => {
    const message = await asyncFailure(() => expect(webhook('/env')).toBeIdempotentFor(pod()));
    expect(message).toContain(
      '  - second call denied the request the first call allowed, rejecting the webhook\'s own output:\n    admission webhook "env.example.com" denied the request: pods may not set the env label',
    );
    expect(message).toContain('  Status:   403');
  });

  it('passes a webhook that adds only what is missing, and says so under .not', async () => {
    await expect(webhook('/good')).toBeIdempotentFor(pod());
    const message = await asyncFailure(() => expect(webhook('/good')).not.toBeIdempotentFor(pod()));
    expect(message).toContain('expected good.example.com to change its own output when called again, but the second call allowed it and left it unchanged');
    expect(message).toContain('Round 1 (the review as given):\n  Changes:\n    added /metadata/labels/env: "prod"\n    added /spec/containers/1 (foo-sidecar)');
    expect(message).toContain("Round 2 (round 1's output):\n  Changes:\n    (no change)");
  });

  it('passes the example webhook, served by its Express app from its manifests', async () => {
    const example = await createHarness({ target: createApp(), manifests: [`${__dirname}/../../examples/pod-defaults/deploy/webhooks.yaml`], seed: 7 });
    try {
      await expect(example.webhook('pod-defaults.example.com')).toBeIdempotentFor(pod());
      // Giving the peer's container resource limits is reacting to the peer, which reinvocation is for.
      await expect(example.webhook('pod-defaults.example.com')).toBeIdempotentFor(pod(), { peers: [meshInjector.ops] });
      const message = await asyncFailure(() => expect(example.webhook('pod-defaults.example.com')).not.toBeIdempotentFor(pod(), { peers: [meshInjector.ops] }));
      expect(message).toContain('but the second call allowed it and only reacted to the peers');
      // The peer's container reached round 2 defaulted (resources: {}), as kube-apiserver defaults after every patch.
      expect(message).toContain('Accepted:\n  - second call added /spec/containers/2/resources/limits: {"cpu":"500m","memory":"256Mi"}');
    } finally {
      await example.close();
    }
  });
});

describe('toBeIdempotentFor with peers between the rounds', () => {
  it('catches a webhook that a peer’s container fools into injecting again', async () => {
    await expect(webhook('/last')).toBeIdempotentFor(pod());
    const message = await asyncFailure(() => expect(webhook('/last')).toBeIdempotentFor(pod(), { peers: [meshInjector] }));
    expect(message).toContain('  - second call added /spec/containers/3 (foo-sidecar) again\n');
    expect(message).toContain('Between the rounds, peer mesh-injector:\n  added /spec/containers/2 (mesh-proxy)');
    expect(message).toContain("Round 2 (round 1's output with the peers' changes)");
  });

  it('catches a webhook that overwrites a peer’s container', async () => {
    const insertsAtOne = [{ op: 'add', path: '/spec/containers/1', value: MESH_PROXY }];
    await expect(webhook('/index-one')).toBeIdempotentFor(pod());
    const message = await asyncFailure(() => expect(webhook('/index-one')).toBeIdempotentFor(pod(), { peers: [insertsAtOne] }));
    expect(message).toContain('  - second call changed /spec/containers/1 (mesh-proxy → foo-sidecar), which peer #1 added between the rounds\n');
  });

  it('passes a well-behaved webhook with peers', async () => {
    await expect(webhook('/good')).toBeIdempotentFor(pod(), { peers: [meshInjector, [{ op: 'add', path: '/metadata/labels/mesh', value: 'on' }]] });
  });

  it('fails either way when a peer’s patch does not apply, with the apply error', async () => {
    const broken = [{ op: 'remove', path: '/metadata/labels/nope' }];
    for (const run of [
      () => expect(webhook('/good')).toBeIdempotentFor(pod(), { peers: [broken] }),
      () => expect(webhook('/good')).not.toBeIdempotentFor(pod(), { peers: [broken] }),
    ]) {
      expect(await asyncFailure(run)).toContain(
        "could not check idempotence: peer #1's patch does not apply to the first call's output:\n  Internal error occurred: error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value",
      );
    }
  });
});

describe('toBeIdempotentFor on stubs', () => {
  it('passes a patch that is sent again but changes nothing (kube-apiserver records mutated: false)', async () => {
    const s = await createHarness({
      seed: 7,
      manifests: [mutating('m', { name: 'label.example.com' }, { name: 'append.example.com' })],
      stubs: {
        'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels/env', value: 'prod' }]),
        'append.example.com': stub.patch([{ op: 'add', path: '/spec/containers/-', value: MESH_PROXY }]),
      },
    });
    try {
      await expect(s.webhook('label.example.com')).toBeIdempotentFor(pod());
      const message = await asyncFailure(() => expect(s.webhook('append.example.com')).toBeIdempotentFor(pod()));
      expect(message).toContain('  - second call added /spec/containers/2 (mesh-proxy) again');
    } finally {
      await s.close();
    }
  });

  it('cannot judge a webhook whose first call fails, and says why under .not too', async () => {
    const s = await createHarness({
      seed: 7,
      manifests: [mutating('m', { name: 'broken.example.com' })],
      stubs: { 'broken.example.com': stub.http(500, 'boom') },
    });
    try {
      const message = await asyncFailure(() => expect(s.webhook('broken.example.com')).not.toBeIdempotentFor(pod()));
      expect(message).toContain(
        'could not check idempotence: the first call left no object to call again with: the call failed:\n  failed calling webhook "broken.example.com"',
      );
    } finally {
      await s.close();
    }
  });
});

describe('toBeIdempotentFor usage errors', () => {
  it('wants a mutating webhook handle and a review with an object', async () => {
    await expect(expect(h).toBeIdempotentFor(pod())).rejects.toThrow(
      'toBeIdempotentFor expects a webhook handle from h.webhook(name), got the harness itself; pass h.webhook(name)',
    );
    await expect(expect(h.webhook({ type: 'validating', path: '/good' })).toBeIdempotentFor(pod())).rejects.toThrow('needs a mutating webhook');
    const deletion = review.delete(objects.pod({ name: 'web-1' }));
    await expect(expect(webhook('/good')).toBeIdempotentFor(deletion)).rejects.toThrow(
      'toBeIdempotentFor needs a request with an object; DELETE pods default/web-1 has none',
    );
  });
});
