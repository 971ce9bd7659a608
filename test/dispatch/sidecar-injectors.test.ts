// Three sidecar injectors meet a later mutating webhook (a label), which makes kube-apiserver reinvoke
// them (reinvocationPolicy: IfNeeded) with the object as the API keeps it: decoded, defaulted, with the
// ServiceAccount plugin's token mount on every container (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go callAttrMutatingHook, k8s.io/apiserver/pkg/registry/rest/create.go BeforeCreate).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, objects, review, stub, type Harness } from '../../lib';
import type { AdmissionReview, JsonPatchOperation } from '../../lib/kube/admission';
import { mutating } from './helpers';

const SIDECAR = { name: 'proxy', image: 'registry.example.com/proxy:1.0' };
type Container = { name: string; image?: string };

/** A webhook that answers each pod with `decide(containers)`'s patch. */
function injector(decide: (containers: Container[]) => JsonPatchOperation[]) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as AdmissionReview;
      const containers = ((review.request?.object as { spec?: { containers?: Container[] } }).spec?.containers ?? []) as Container[];
      const patch = decide(containers);
      const response = {
        uid: review.request?.uid,
        allowed: true,
        ...(patch.length > 0 ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } : {}),
      };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
    });
  };
}

const append: JsonPatchOperation = { op: 'add', path: '/spec/containers/-', value: SIDECAR };
const INJECTORS = {
  /** Appends its sidecar every time. */
  blind: injector(() => [append]),
  /** Looks for its sidecar and, when the one it finds differs from its own spec, puts its spec back: the API's defaults make it differ. */
  exact: injector((containers) => {
    const at = containers.findIndex((c) => c.name === SIDECAR.name);
    if (at < 0) return [append];
    return JSON.stringify(containers[at]) === JSON.stringify(SIDECAR) ? [] : [{ op: 'replace', path: `/spec/containers/${at}`, value: SIDECAR }];
  }),
  /** Looks for its sidecar by name and leaves it alone. */
  careful: injector((containers) => (containers.some((c) => c.name === SIDECAR.name) ? [] : [append])),
};

const harnesses: Harness[] = [];
afterAll(() => Promise.all(harnesses.map((h) => h.close())));

async function withPeer(kind: keyof typeof INJECTORS): Promise<Harness> {
  const h = await createHarness({
    seed: 3,
    target: INJECTORS[kind],
    manifests: [mutating('a-sidecar', { name: 'sidecar.example.com', reinvocationPolicy: 'IfNeeded' }), mutating('b-label', { name: 'label.example.com' })],
    stubs: { 'label.example.com': stub.patch([{ op: 'add', path: '/metadata/labels/team', value: 'shop' }]) },
  });
  harnesses.push(h);
  return h;
}

const pod = () => review.create(objects.pod({ name: 'web-1', namespace: 'default', images: ['nginx:1.27'] }));

describe('a sidecar injector reinvoked after a later webhook’s change', () => {
  it('one that appends blindly is refused by the API: the duplicate container name is a 422, before any validating webhook', async () => {
    const h = await withPeer('blind');
    const result = await h.admit(pod());
    expect(result).toBeDenied({ code: 422, reason: 'Invalid', message: 'Pod "web-1" is invalid: spec.containers[2].name: Duplicate value: "proxy"' });
    expect(result.trace.calls.map((s) => s.webhook)).toEqual(['sidecar.example.com', 'label.example.com', 'sidecar.example.com']);
    expect(String(result.trace)).toContain('strategy and validation: rejected — 422 Pod "web-1" is invalid');
  });

  it('one that compares its sidecar with its own spec is not idempotent: the API defaulted the container it finds', async () => {
    const h = await withPeer('exact');
    await expect(h.webhook('sidecar.example.com')).not.toBeIdempotentFor(pod());
    const first = (await h.call('sidecar.example.com', pod())).patched;
    if (!first?.ok || !first.object) throw new Error('the first call should have patched the pod');
    const second = await h.call('sidecar.example.com', review.create(first.object));
    expect(second.patch).toEqual([{ op: 'replace', path: '/spec/containers/1', value: SIDECAR }]);
    // kube-apiserver compares the decoded object before defaulting it: the defaults the replace drops are a change.
    expect(second.patched).toMatchObject({ ok: true, changed: true });
  });

  it('one that looks for its sidecar by name passes: idempotent, and its output valid', async () => {
    const h = await withPeer('careful');
    await expect(h.webhook('sidecar.example.com')).toBeIdempotentFor(pod(), { peers: [[{ op: 'add', path: '/metadata/labels/team', value: 'shop' }]] });
    expect(await h.call('sidecar.example.com', pod())).toProduceValidObject();
    const result = await h.admit(pod());
    expect(result).toBeAllowed();
    expect(result.trace.calls.map((s) => s.webhook)).toEqual(['sidecar.example.com', 'label.example.com', 'sidecar.example.com']);
  });
});
