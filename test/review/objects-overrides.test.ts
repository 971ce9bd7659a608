/**
 * Generated objects do what the caller said, whatever the seed: overrides merge member by member,
 * lists replace, `null` removes; a describing list (a pod spec's `containers`, an Ingress's or a
 * Role's `rules`, a NetworkPolicy's `ingress`/`egress`) leaves the generated lists beside it out; and
 * generated containers that stay lose the mounts of volumes the caller replaced. Checked over 200
 * seeds, with the API's validation as the judge of the objects' validity.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { objects, review } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { defaultCatalog } from '../../lib/kube/catalog';
import type { JsonRecord } from '../../lib/kube/record';
import { Registry, validatingView } from '../../lib/registry';

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const CONTAINERS = [{ name: 'app', image: 'registry.example.com/app:1.0' }];

// The registry stage of a CREATE (strategy, then validation): the 422 message, or undefined when valid.
const registry = new Registry(defaultCatalog);
beforeAll(() => registry.ready());
const refusal = (object: KubeObject): string | undefined => registry.validate(validatingView(review.create(object).attributes, 1))?.message;
const at = (object: unknown, ...path: string[]): JsonRecord =>
  path.reduce<JsonRecord>((node, key) => (node?.[key] ?? undefined) as JsonRecord, object as JsonRecord);
const names = (list: unknown): string[] => ((list as JsonRecord[] | undefined) ?? []).map((item) => String(item.name));

describe('a pod spec given its containers runs exactly those', () => {
  it.each(SEEDS)('pod, seed %i', (seed) => {
    const pod = objects.pod({ name: 'web', namespace: 'prod', spec: { containers: CONTAINERS } }, { seed });
    const spec = at(pod, 'spec');
    expect(names(spec.containers)).toEqual(['app']);
    expect(spec.initContainers).toBeUndefined();
    // The only volume is the one the ServiceAccount plugin mounts, as it does into any pod.
    expect(names(spec.volumes)).toEqual([expect.stringMatching(/^kube-api-access-[a-z0-9]{5}$/)]);
    expect(spec.imagePullSecrets).toBeUndefined();
    expect(refusal(pod)).toBeUndefined();
  });

  const templates: [string, (seed: number) => KubeObject, string[]][] = [
    ['deployment', (seed) => objects.deployment({ spec: { template: { spec: { containers: CONTAINERS } } } }, { seed }), ['spec', 'template', 'spec']],
    [
      'replicaSet',
      (seed) => objects.replicaSet({ spec: { template: { spec: { containers: CONTAINERS } } } }, { seed, owner: null }),
      ['spec', 'template', 'spec'],
    ],
    ['statefulSet', (seed) => objects.statefulSet({ spec: { template: { spec: { containers: CONTAINERS } } } }, { seed }), ['spec', 'template', 'spec']],
    ['daemonSet', (seed) => objects.daemonSet({ spec: { template: { spec: { containers: CONTAINERS } } } }, { seed }), ['spec', 'template', 'spec']],
    ['job', (seed) => objects.job({ spec: { template: { spec: { containers: CONTAINERS } } } }, { seed }), ['spec', 'template', 'spec']],
    [
      'cronJob',
      (seed) => objects.cronJob({ spec: { jobTemplate: { spec: { template: { spec: { containers: CONTAINERS } } } } } }, { seed }),
      ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
    ],
  ];
  it.each(templates)('%s templates, over 200 seeds', (_kind, make, path) => {
    for (const seed of SEEDS) {
      const object = make(seed);
      const spec = at(object, ...path);
      expect({ seed, containers: names(spec.containers), init: spec.initContainers, volumes: spec.volumes, tolerations: spec.tolerations }).toEqual({
        seed,
        containers: ['app'],
        init: undefined,
        volumes: undefined,
        tolerations: undefined,
      });
      expect({ seed, refusal: refusal(object) }).toEqual({ seed, refusal: undefined });
    }
  });

  it('what the caller left out stays generated; null removes it', () => {
    const varied = new Set(
      SEEDS.map((seed) => JSON.stringify(at(objects.pod({ spec: { containers: CONTAINERS } }, { seed }), 'spec').securityContext ?? null)),
    );
    expect(varied.size).toBeGreaterThan(1);
    for (const seed of SEEDS) {
      const spec = at(objects.pod({ spec: { containers: CONTAINERS, securityContext: null, nodeSelector: null } }, { seed }), 'spec');
      // The API's defaulting gives an empty security context back (a struct value).
      expect([seed, spec.securityContext, spec.nodeSelector]).toEqual([seed, {}, undefined]);
    }
  });

  it('init containers given alone replace the generated ones and keep the generated containers', () => {
    const init = [{ name: 'setup', image: 'busybox:1.36' }];
    for (const seed of SEEDS) {
      const plain = at(objects.pod({ name: 'web' }, { seed }), 'spec');
      const spec = at(objects.pod({ name: 'web', spec: { initContainers: init } }, { seed }), 'spec');
      expect([seed, names(spec.initContainers), names(spec.containers)]).toEqual([seed, ['setup'], names(plain.containers)]);
    }
  });
});

describe('volumes replaced under generated containers', () => {
  const volumes = [{ name: 'data', emptyDir: {} }];
  it('a pod given only volumes: its generated containers mount none of the volumes that are gone (200 seeds)', () => {
    for (const seed of SEEDS) {
      const pod = objects.pod({ name: 'web', namespace: 'prod', spec: { volumes } }, { seed });
      const spec = at(pod, 'spec');
      expect([seed, names(spec.volumes)[0]]).toEqual([seed, 'data']);
      expect({ seed, refusal: refusal(pod) }).toEqual({ seed, refusal: undefined });
    }
  });

  it('a StatefulSet given its own claim templates: the generated container no longer mounts the generated claim (200 seeds)', () => {
    const claim = { metadata: { name: 'state' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    for (const seed of SEEDS) {
      const set = objects.statefulSet({ spec: { volumeClaimTemplates: [claim] } }, { seed });
      const mounts = (at(set, 'spec', 'template', 'spec').containers as unknown as JsonRecord[]).flatMap((c) => names(c.volumeMounts));
      expect([seed, mounts.includes('data')]).toEqual([seed, false]);
      expect({ seed, refusal: refusal(set) }).toEqual({ seed, refusal: undefined });
    }
  });
});

describe('the other kinds: a describing list given leaves the generated lists beside it out', () => {
  it('an Ingress given its rules has no tls for a generated host (200 seeds)', () => {
    const rules = [
      { host: 'shop.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'shop', port: { number: 80 } } } }] } },
    ];
    for (const seed of SEEDS) {
      const spec = at(objects.ingress({ spec: { rules } }, { seed }), 'spec');
      expect([seed, spec.tls, (spec.rules as unknown as JsonRecord[]).map((r) => r.host)]).toEqual([seed, undefined, ['shop.example.com']]);
    }
  });

  it('a NetworkPolicy given its ingress rules restricts no generated egress (200 seeds)', () => {
    const ingress = [{ from: [{ podSelector: { matchLabels: { app: 'front' } } }] }];
    for (const seed of SEEDS) {
      const spec = at(objects.networkPolicy({ spec: { ingress } }, { seed }), 'spec');
      expect([seed, spec.egress, spec.policyTypes]).toEqual([seed, undefined, ['Ingress']]);
    }
  });

  it('a Role given its rules has those rules only', () => {
    const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];
    for (const seed of SEEDS)
      expect([seed, objects.role({ rules }, { seed }).rules]).toEqual([seed, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]]);
  });
});

describe('the README states the rule beside its first objects example', () => {
  it('quotes a call that runs exactly its container, whatever the seed', () => {
    const readme = readFileSync(path.join(__dirname, '../../README.md'), 'utf8');
    expect(readme).toContain("`objects.pod({ spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } })` runs exactly that");
    expect(readme).toContain('`null` removes a member');
    for (const seed of SEEDS) {
      const spec = at(objects.pod({ spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } }, { seed }), 'spec');
      expect([seed, (spec.containers as unknown as JsonRecord[]).map((c) => [c.name, c.image]), spec.initContainers, spec.imagePullSecrets]).toEqual([
        seed,
        [['app', 'nginx:1.27']],
        undefined,
        undefined,
      ]);
    }
  });
});
