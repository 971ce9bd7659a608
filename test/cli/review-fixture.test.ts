// `review … --object FILE [--old-object FILE] --out DIR`: kubectl output turned into a RecordedReview
// fixture, the format `record` and `review --from-audit` write, which `replay` takes.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFixtures } from '../../lib/replay';
import { yaml } from '../../lib/yaml';
import { cli } from './captured';

const root = path.join(__dirname, '../..');
const MANIFESTS = path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml');
const EXAMPLE = path.join(root, 'examples/pod-defaults/src/app.ts');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ah-review-fixture-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pod as `kubectl get pod -o yaml` prints one (status and server-set fields included). */
function kubectlPod(labels: Record<string, string>): string {
  return yaml().stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web',
      namespace: 'shop',
      uid: '7c2d0b7e-1f0e-4c41-9d3a-0a3f5b1e2c11',
      resourceVersion: '4711',
      creationTimestamp: '2026-05-01T10:00:00Z',
      labels,
    },
    spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { limits: { cpu: '500m', memory: '256Mi' } } }] },
    status: { phase: 'Running' },
  });
}

it('writes an UPDATE of two kubectl objects as a fixture that replays (recorded by --update, then passing)', async () => {
  const old = path.join(dir, 'old.yaml');
  const next = path.join(dir, 'new.yaml');
  writeFileSync(old, kubectlPod({ app: 'web' }));
  writeFileSync(next, kubectlPod({ app: 'web', tier: 'frontend' }));
  const out = path.join(dir, 'fixtures');
  const written = await cli('review', 'pods', 'UPDATE', '--object', next, '--old-object', old, '--user', 'jane', '--group', 'dev', '--out', out);
  expect(written.stderr).toBe('');
  expect(written.code).toBe(0);
  expect(written.stdout).toBe(`wrote ${path.join(out, 'pods-update-1.yaml')}\n`);

  const document = yaml().parse(readFileSync(path.join(out, 'pods-update-1.yaml'), 'utf8'), { version: '1.1' }) as Record<string, any>;
  expect(document.source).toEqual({ from: 'objects', request: 'pods UPDATE', object: next, oldObject: old, seed: 1 });
  expect(document.kind).toBe('RecordedAdmission');
  expect(document.limits).toEqual(['namespace shop: replay declares it without labels (a namespaceSelector reading other labels needs it declared with them)']);
  expect(document.request).toMatchObject({
    operation: 'UPDATE',
    namespace: 'shop',
    name: 'web',
    userInfo: { username: 'jane', groups: ['dev', 'system:authenticated'] },
  });
  expect(document.request.object.metadata.labels).toEqual({ app: 'web', tier: 'frontend' });
  expect(document.request.oldObject.metadata.labels).toEqual({ app: 'web' });
  const [loaded] = loadFixtures([out]);
  expect(loaded?.review.summary()).toContain('UPDATE pods shop/web');

  const recorded = await cli('replay', out, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', 'image-policy.example.com', '--update');
  expect(recorded.code).toBe(0);
  const replayed = await cli('replay', out, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', 'image-policy.example.com');
  expect(replayed.stdout).toContain('1 fixture: 1 passed, 0 failed');
  expect(replayed.code).toBe(0);
});

it('says in the limits what a generated review cannot know, and numbers further fixtures', async () => {
  const out = path.join(dir, 'fixtures');
  for (let i = 0; i < 2; i++) expect((await cli('review', 'pods', 'CREATE', '--namespace', 'shop', '--out', out)).code).toBe(0);
  expect(readdirSync(out).sort()).toEqual(['pods-create-1.yaml', 'pods-create-2.yaml']);
  const document = yaml().parse(readFileSync(path.join(out, 'pods-create-1.yaml'), 'utf8'), { version: '1.1' }) as Record<string, any>;
  expect(document.source).toEqual({ from: 'objects', request: 'pods CREATE', seed: 1 });
  expect(document.limits).toEqual([
    "userInfo: the harness's default user, not who made a real request (give --user and --group)",
    'object: generated from the seed, not a real object (give --object FILE)',
    'namespace shop: replay declares it without labels (a namespaceSelector reading other labels needs it declared with them)',
  ]);
});

it('refuses a fixture whose objects source has a misspelt member, naming the nearest', () => {
  const file = path.join(dir, 'bad.yaml');
  writeFileSync(
    file,
    yaml().stringify({
      apiVersion: 'admission-harness/v1alpha1',
      kind: 'RecordedReview',
      source: { from: 'objects', request: 'pods CREATE', seed: 1, objekt: 'x.yaml' },
      request: {
        uid: 'u',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        operation: 'CREATE',
        userInfo: {},
        object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd' } },
      },
      limits: [],
    }),
  );
  expect(() => loadFixtures([file])).toThrow(/bad\.yaml:7: source\.objekt: unknown field "objekt" \(did you mean "object"\?\)/);
});
