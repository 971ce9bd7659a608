// lib/registry/strategy/create.ts: an object the registry already defaulted is stored with only its
// metadata put back in order; that must give what the whole defaulting pass gives, byte for byte.
import { objects } from '../../lib';
import { apiDefaults } from '../../lib/registry/defaults';
import { persist } from '../../lib/registry/strategy/create';
import { storageRandom } from '../../lib/registry/strategy/random';
import { SeededRandom } from '../../lib/random';
import type { JsonRecord } from '../../lib/kube/record';

const KINDS = [
  'pod',
  'deployment',
  'replicaSet',
  'statefulSet',
  'daemonSet',
  'job',
  'cronJob',
  'service',
  'configMap',
  'secret',
  'namespace',
  'serviceAccount',
  'persistentVolumeClaim',
  'ingress',
  'networkPolicy',
  'role',
  'roleBinding',
  'clusterRole',
  'clusterRoleBinding',
] as const;

describe.each(KINDS)('%s', (kind) => {
  it.each([1, 2, 3, 4, 5])('seed %i: the defaulted object stores as the full pass stores it', (seed) => {
    const generate = objects[kind] as (shortcuts?: object, options?: { seed?: number }) => JsonRecord;
    const defaulted = apiDefaults(generate({}, { seed }));
    const full = persist(defaulted, storageRandom(new SeededRandom(seed)), false);
    const narrow = persist(defaulted, storageRandom(new SeededRandom(seed)), false, { defaulted: true });
    expect(JSON.stringify(narrow)).toBe(JSON.stringify(full));
  });
});

it('a generated name and an allocated spec still get the whole pass', () => {
  const service = apiDefaults(objects.service({}, { seed: 7 }) as JsonRecord);
  const { name: _name, ...metadata } = service.metadata as JsonRecord;
  const unnamed = { ...service, metadata: { ...metadata, generateName: 'web-' } };
  const full = persist(unnamed, storageRandom(new SeededRandom(7)), false);
  const narrow = persist(unnamed, storageRandom(new SeededRandom(7)), false, { defaulted: true });
  expect(JSON.stringify(narrow)).toBe(JSON.stringify(full));
  expect((narrow.metadata as JsonRecord).name).toMatch(/^web-[a-z0-9]{5}$/);
});
