// The usual layout, one mutating and one validating webhook matching the same request (the example's
// pod-defaults and image-policy): `review … --out` writes the client's request as an admission fixture,
// `replay --update` records every webhook's answer in chain order, and a plain `replay` compares each
// webhook's answer with its own, as CI runs it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { yaml } from '../../lib/yaml';
import { cli } from './captured';
import { MANIFESTS, MUTATE, VALIDATE, tempDir, writeFile } from '../replay/helpers';

const EXAMPLE = path.join(__dirname, '../../examples/pod-defaults/src/app.ts');
const STRICT = path.join(__dirname, 'fixtures/strict-image-policy.ts');
const MUTATING = `pod-defaults/${MUTATE}`;
const VALIDATING = `pod-policy/${VALIDATE}`;

// A loaded machine runs each CLI call (a harness, TLS, the chain) in seconds, not milliseconds.
jest.setTimeout(120_000);

const temp = tempDir('admission-cli');
afterAll(() => temp.remove());

/** A pod as `kubectl get pod -o yaml` prints one, for `review --object`. */
function podFile(dir: string): string {
  const file = path.join(dir, 'pod.yaml');
  writeFileSync(
    file,
    yaml().stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'shop', labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] },
    }),
  );
  return file;
}

const replay = (...args: string[]) => cli('replay', ...args, '--manifests', MANIFESTS);

describe('review --out, replay --update, then replay', () => {
  const out = path.join(temp.dir, 'fixtures');
  const fixture = path.join(out, 'pods-create-1.yaml');

  beforeAll(async () => {
    const written = await cli('review', 'pods', 'CREATE', '--object', podFile(temp.dir), '--out', out);
    expect(written).toMatchObject({ code: 0, stderr: '' });
  });

  it('records the answer of every webhook the request reaches, then passes a plain replay (exit 0)', async () => {
    const updated = await replay(out, '--module', EXAMPLE, '--update');
    expect(updated.stderr).toBe('');
    expect(updated.stdout).toContain('1 fixture: 0 passed, 0 failed, 0 new, 1 updated');
    expect(updated.code).toBe(0);

    // The fixture says its unit (an admission) and holds each webhook's answer in the order the chain
    // called them: the mutating webhook, its reinvocation (reinvocationPolicy IfNeeded: the ServiceAccount
    // plugin changed the object after it), then the validating webhook.
    const document = yaml().parse(readFileSync(fixture, 'utf8'), { version: '1.1' }) as {
      kind: string;
      answers: { webhook: string; round: number; response: { allowed: boolean; patch?: string } }[];
    };
    expect(document.kind).toBe('RecordedAdmission');
    expect(document.answers.map((a) => [a.webhook, a.round, a.response.allowed])).toEqual([
      [MUTATING, 0, true],
      [MUTATING, 1, true],
      [VALIDATING, 0, true],
    ]);
    expect(Buffer.from(document.answers[0]!.response.patch!, 'base64').toString()).toContain('"/spec/containers/-"');

    const plain = await replay(out, '--module', EXAMPLE);
    expect(plain.stdout).toContain('1 fixture: 1 passed, 0 failed, 0 new, 0 updated');
    expect(plain.code).toBe(0);
  });

  it('fails when the validating webhook answers otherwise, naming that webhook alone (exit 1)', async () => {
    const changed = await replay(out, '--module', STRICT);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('pods-create-1.yaml · CREATE pods shop/web: failed');
    expect(changed.stdout).toContain(`  ${VALIDATE}:\n    allowed: recorded true, replayed false\n`);
    expect(changed.stdout).not.toContain(`  ${MUTATE}:`);
    // The chain as replayed, for the reader.
    expect(changed.stdout).toContain(`[0] ${VALIDATING}: denied`);
    expect(changed.stdout).toContain('1 fixture: 0 passed, 1 failed, 0 new, 0 updated');
  });
});

describe('fixtures written before admissions were recorded', () => {
  /** A RecordedReview as earlier versions wrote it: no `webhook` member, one response. */
  const oldFixture = (uid: string, operation: 'CREATE' | 'UPDATE', response: object) => ({
    apiVersion: 'admission-harness/v1alpha1',
    kind: 'RecordedReview',
    source: { from: 'objects', request: `pods ${operation}`, seed: 1 },
    request: {
      uid,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      name: 'web',
      namespace: 'shop',
      operation,
      userInfo: { username: 'admin' },
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { limits: { cpu: '500m' } } }] },
      },
      oldObject:
        operation === 'UPDATE'
          ? {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: 'web', namespace: 'shop' },
              spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { limits: { cpu: '500m' } } }] },
            }
          : null,
      dryRun: false,
      options: null,
    },
    response: { uid, ...response },
    limits: [],
  });

  it('still replay beside admission fixtures: a call its rules send to one webhook, and one recorded with --webhook', async () => {
    const [dir, named] = [path.join(temp.dir, 'mixed'), path.join(temp.dir, 'webhook-named')];
    for (const d of [dir, named]) mkdirSync(d);
    // A pod UPDATE: only the validating webhook's rules match it.
    writeFile(dir, 'old-update.yaml', [oldFixture('old-1', 'UPDATE', { allowed: true })]);
    // A pod CREATE answered by the validating webhook, recorded with --webhook before fixtures named it.
    writeFile(named, 'old-create.yaml', [oldFixture('old-2', 'CREATE', { allowed: true })]);
    expect((await cli('review', 'pods', 'CREATE', '--object', podFile(temp.dir), '--out', dir)).code).toBe(0);
    expect((await replay(dir, '--module', EXAMPLE, '--update')).code).toBe(0);

    const plain = await replay(dir, '--module', EXAMPLE);
    expect(plain.stdout).toContain('2 fixtures: 2 passed, 0 failed, 0 new, 0 updated');
    expect(plain.code).toBe(0);
    const withWebhook = await replay(named, '--module', EXAMPLE, '--webhook', VALIDATE);
    expect(withWebhook.stdout).toContain('1 fixture: 1 passed');
    expect(withWebhook.code).toBe(0);
    // Recorded with --webhook now, a call fixture names its webhook: a plain replay sends it there alone.
    const recordNow = path.join(temp.dir, 'named-on-update');
    mkdirSync(recordNow);
    const { response: _none, ...unanswered } = oldFixture('old-3', 'CREATE', { allowed: true });
    writeFile(recordNow, 'create.yaml', [unanswered]);
    expect((await replay(recordNow, '--module', EXAMPLE, '--webhook', VALIDATE, '--update')).code).toBe(0);
    expect(yaml().parse(readFileSync(path.join(recordNow, 'create.yaml'), 'utf8'), { version: '1.1' })).toMatchObject({
      webhook: VALIDATING,
      response: { uid: 'old-3', allowed: true },
    });
    const plainNamed = await replay(recordNow, '--module', EXAMPLE);
    expect(plainNamed.stdout).toContain('1 fixture: 1 passed');
    expect(plainNamed.code).toBe(0);

    const json = JSON.parse((await replay(dir, '--module', EXAMPLE, '--json')).stdout) as { fixtures: { name: string; unit: string }[] };
    expect(json.fixtures.map((f) => [f.name, f.unit])).toEqual([
      ['old-update.yaml', 'call'],
      ['pods-create-1.yaml', 'admission'],
    ]);
  });
});

it('refuses a fixture naming a webhook the manifests do not declare, with the nearest spelling (exit 2)', async () => {
  const dir = path.join(temp.dir, 'misspelt');
  expect((await cli('review', 'pods', 'CREATE', '--object', podFile(temp.dir), '--out', dir)).code).toBe(0);
  expect((await replay(dir, '--module', EXAMPLE, '--update')).code).toBe(0);
  const file = path.join(dir, 'pods-create-1.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(`webhook: ${VALIDATING}`, 'webhook: pod-policy/image-polcy.example.com'));
  const refused = await replay(dir, '--module', EXAMPLE);
  expect(refused.code).toBe(2);
  expect(refused.stdout).toBe('');
  expect(refused.stderr).toContain(
    `pods-create-1.yaml: answers[2].webhook: no webhook "pod-policy/image-polcy.example.com" in the manifests (did you mean "${VALIDATING}"?); they declare ${MUTATING}, ${VALIDATING}`,
  );
});
