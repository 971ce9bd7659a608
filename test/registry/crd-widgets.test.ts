import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isObject, type JsonObject } from '../../lib/kube/json';
import {
  prepareCustomResourceForCreate,
  prepareCustomResourceForUpdate,
  prepareCustomResourceStatusUpdate,
  prepareCustomResourceValidation,
  pruneCustomResource,
  structuralSchema,
  validateCustomResource,
} from '../../lib/registry/crd';

// Recorded from kube-apiserver v1.36.2 (test/fixtures/apiserver-captures, README there).
const CAPTURES = path.join(__dirname, '../fixtures/apiserver-captures');

interface Call {
  webhook: string;
  body: {
    request: {
      operation: string;
      subResource?: string;
      kind: { group: string; version: string; kind: string };
      object: JsonObject | null;
      oldObject: JsonObject | null;
    };
  };
}

const capture = (name: string): { calls: Call[] } => JSON.parse(readFileSync(`${CAPTURES}/${name}.json`, 'utf8'));

const crd = capture('customresourcedefinitions-create').calls[0]?.body.request.object as JsonObject;
const spec = crd.spec as JsonObject;
const versions = (spec.versions as JsonObject[]).map((version) => ({
  name: version.name as string,
  schema: structuralSchema((version.schema as JsonObject).openAPIV3Schema),
  scale: ((version.subresources as JsonObject).scale ?? undefined) as { specReplicasPath: string; statusReplicasPath: string } | undefined,
}));

const WIDGETS = ['widgets-create-v1', 'widgets-create-v2', 'widgets-delete-v2', 'widgets-patch-merge-v2', 'widgets-status-v2'];

/** Every Widget a webhook was sent, with the request it came with. */
const recorded = WIDGETS.flatMap((file) =>
  capture(file).calls.flatMap(({ webhook, body: { request } }) =>
    [request.object, request.oldObject].filter(isObject).map((object) => ({ label: `${file} ${webhook}`, request, object })),
  ),
);

describe('the widgets CRD of the recorded captures', () => {
  beforeAll(async () => {
    for (const version of versions) expect(await prepareCustomResourceValidation(version.schema)).toEqual([]);
  });

  it('has the two versions the captures use', () => {
    expect(versions.map((v) => v.name)).toEqual(['v1', 'v2']);
    expect(recorded.length).toBeGreaterThan(20);
  });

  it.each(recorded.map((r) => [r.label, r] as const))('validates and prunes the recorded object of %s unchanged', (_label, { request, object }) => {
    const version = versions.find((v) => `${spec.group}/${v.name}` === object.apiVersion);
    expect(version).toBeDefined();
    if (!version) return;
    const kind = { group: spec.group as string, version: version.name, kind: 'Widget' };
    const options = { kind, namespaced: true, scale: version.scale, ...(request.subResource === 'status' ? { subresource: 'status' as const } : {}) };
    // Update validation needs the old object; a create or the old object alone is validated as a create.
    const old = object === request.object ? request.oldObject : null;
    expect(validateCustomResource(version.schema, object, old, options)).toEqual([]);
    expect(pruneCustomResource(version.schema, object)).toEqual({ object, pruned: [] });
  });

  it('sets generation 1 on create, as the validating webhooks saw it after the mutating ones', () => {
    const calls = capture('widgets-create-v1').calls;
    const mutating = calls.find((c) => c.webhook === 'mutate.capture.local')?.body.request.object as JsonObject;
    const validating = calls.find((c) => c.webhook === 'validate.capture.local')?.body.request.object as JsonObject;
    const prepared = prepareCustomResourceForCreate(mutating, { statusSubresource: true });
    expect((prepared.metadata as JsonObject).generation).toBe((validating.metadata as JsonObject).generation);
    expect(prepared.spec).toEqual(validating.spec);
  });

  it('increments generation when a patch changes the spec, as recorded', () => {
    const calls = capture('widgets-patch-merge-v2').calls;
    const mutating = calls.find((c) => c.webhook === 'mutate.capture.local')?.body.request;
    const validating = calls.find((c) => c.webhook === 'validate.capture.local')?.body.request;
    const prepared = prepareCustomResourceForUpdate(mutating?.object as JsonObject, mutating?.oldObject as JsonObject, { statusSubresource: true });
    expect((prepared.metadata as JsonObject).generation).toBe(((validating?.object as JsonObject).metadata as JsonObject).generation);
  });

  it('takes only status and managedFields from a status write, as recorded', () => {
    const calls = capture('widgets-status-v2').calls;
    const mutating = calls.find((c) => c.webhook === 'mutate.capture.local')?.body.request;
    const validating = calls.find((c) => c.webhook === 'validate.capture.local')?.body.request;
    expect(prepareCustomResourceStatusUpdate(mutating?.object as JsonObject, mutating?.oldObject as JsonObject)).toEqual(validating?.object);
  });
});
