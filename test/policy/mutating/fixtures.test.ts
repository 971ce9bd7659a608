/**
 * The recorded MutatingAdmissionPolicies of test/fixtures/apiserver-policies (kube-apiserver v1.36.2):
 * their ApplyConfiguration expressions, evaluated and merged into the pod as it was before the policy,
 * give the object the next mutating webhook received.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../../../lib/kube/json';
import { applyJsonPatch } from '../../../lib/patch';
import { applyConfiguration, builtinApplySchema, compileMutation, type MutationEnvironment } from '../../../lib/policy/mutating';
import { activation, policyMutationEnvironment } from './helpers';

interface Mutation {
  patchType: 'ApplyConfiguration' | 'JSONPatch';
  applyConfiguration?: { expression: string };
}
interface Recording {
  objectsCreated: Array<{ sent: { kind: string; metadata: { name: string }; spec: { mutations?: Mutation[] } } }>;
  requests: Array<{ label: string; webhookCalls: Array<{ admissionReviewReceived: { request: { object: JsonObject } }; patchOpsDecoded?: unknown[] }> }>;
}

const recording = (name: string): Recording =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures/apiserver-policies', `${name}.json`), 'utf8')) as Recording;

function mutationsOf(file: Recording, policy: string): Mutation[] {
  const created = file.objectsCreated.find((object) => object.sent.kind === 'MutatingAdmissionPolicy' && object.sent.metadata.name === policy);
  if (!created?.sent.spec.mutations) throw new Error(`no policy ${policy}`);
  return created.sent.spec.mutations;
}

function received(file: Recording, request: number, call: number): JsonObject {
  const object = file.requests[request]?.webhookCalls[call]?.admissionReviewReceived.request.object;
  if (!object) throw new Error(`no webhook call ${request}/${call}`);
  return object;
}

/** The object with some labels taken off: the pod as it was before the policy added them. */
function withoutLabels(object: JsonObject, ...labels: string[]): JsonObject {
  const copy = structuredClone(object);
  const metadata = copy.metadata as JsonObject;
  for (const label of labels) delete (metadata.labels as JsonObject)[label];
  return copy;
}

const POD_SCHEMA = builtinApplySchema('v1', 'Pod')!;
let env: MutationEnvironment;
beforeAll(async () => {
  env = await policyMutationEnvironment();
});

/** The dispatcher's loop over one policy's mutations: each sees the object the previous one made. */
function runPolicy(mutations: readonly Mutation[], object: JsonObject): JsonObject {
  let current = object;
  for (const mutation of mutations) {
    if (mutation.patchType !== 'ApplyConfiguration' || !mutation.applyConfiguration) throw new Error('only ApplyConfiguration mutations are recorded');
    const compiled = compileMutation(env, 'ApplyConfiguration', mutation.applyConfiguration.expression);
    if (!compiled.ok) throw new Error(compiled.error);
    const evaluated = compiled.evaluate(activation(current));
    if (!evaluated.ok || evaluated.patchType !== 'ApplyConfiguration') throw new Error(JSON.stringify(evaluated));
    const merged = applyConfiguration(current, evaluated.applyConfiguration, POD_SCHEMA);
    if (!merged.ok) throw new Error(merged.error);
    current = merged.object;
  }
  return current;
}

describe('map-applyconfiguration.json', () => {
  const file = recording('map-applyconfiguration');
  it('the label of Object{metadata: Object.metadata{labels: {…}}} is there for the webhook after the policy', () => {
    const seen = received(file, 0, 0);
    expect((seen.metadata as JsonObject).labels).toEqual({ app: 't', 'mutated-by-map': 'yes', 'oracle3-case': 'map-applyconfiguration' });
    expect(runPolicy(mutationsOf(file, 'oracle3-map-ac'), withoutLabels(seen, 'mutated-by-map'))).toEqual(seen);
  });
});

describe('map-reinvocation.json', () => {
  const file = recording('map-reinvocation');

  it('(A) adds map-added once; re-run after the webhook it changes nothing', () => {
    const seen = received(file, 0, 0);
    const mutations = mutationsOf(file, 'oracle3-map-reinv');
    expect(runPolicy(mutations, withoutLabels(seen, 'map-added'))).toEqual(seen);
    const patched = applyJsonPatch(seen, file.requests[0]?.webhookCalls[0]?.patchOpsDecoded);
    if (!patched.ok) throw new Error(patched.error);
    expect(runPolicy(mutations, patched.document as JsonObject)).toEqual(patched.document);
  });

  it('(B) round 0: both mutations in order, before the webhook', () => {
    const seen = received(file, 1, 0);
    expect((seen.metadata as JsonObject).labels).toMatchObject({ 'map-added': 'yes', 'map-saw-wh': 'no' });
    expect(runPolicy(mutationsOf(file, 'oracle3-map-reinv-b'), withoutLabels(seen, 'map-added', 'map-saw-wh'))).toEqual(seen);
  });

  it('(B) round 1: re-run on the webhook’s result, the policy gives what the reinvoked webhook received', () => {
    const patched = applyJsonPatch(received(file, 1, 0), file.requests[1]?.webhookCalls[0]?.patchOpsDecoded);
    if (!patched.ok) throw new Error(patched.error);
    const seen = received(file, 1, 1);
    expect((seen.metadata as JsonObject).labels).toMatchObject({ 'map-saw-wh': 'yes', 'wh-added': 'true' });
    expect(runPolicy(mutationsOf(file, 'oracle3-map-reinv-b'), patched.document as JsonObject)).toEqual(seen);
  });

  it('(C) reinvocationPolicy Never: the same mutations before the webhook', () => {
    const seen = received(file, 2, 0);
    expect(runPolicy(mutationsOf(file, 'oracle3-map-reinv-c'), withoutLabels(seen, 'map-added', 'map-saw-wh'))).toEqual(seen);
  });
});
