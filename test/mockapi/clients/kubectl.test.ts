// kubectl against the mock API over real TLS, with nothing but the kubeconfig startMockApi writes: discovery,
// get and get -w, client-side and server-side apply (with the OpenAPI v2 validation kubectl up to 1.26 does),
// create (a protobuf body), auth can-i, explain, patch, scale and delete. CI runs Debian's kubectl (the
// kubernetes-client package, 1.20 on bookworm), named by $KUBECTL; without it, /usr/bin/kubectl.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMockApi, type MockApi } from '../../../lib/mockapi';

jest.setTimeout(180_000);

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';

let api: MockApi;
let home: string;
/** kubectl's minor version: before 1.27 it validates manifests itself, from /openapi/v2. */
let minor: number;

beforeAll(async () => {
  // A missing kubectl is a broken test machine, not a reason to pass: say what to install.
  if (!existsSync(KUBECTL))
    throw new Error(`${KUBECTL} is missing: install Debian's kubectl (apt-get install kubernetes-client) or set KUBECTL; CI does it in .ci/run`);
  home = mkdtempSync(path.join(os.tmpdir(), 'ah-kubectl-'));
  api = await startMockApi({ seed: 20, intercept: false, namespaces: [{ name: 'team' }] });
  api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seeded', namespace: 'team' }, data: { k: '1' } });
  const version = JSON.parse((await kubectl('version', '--client', '-o', 'json')).stdout) as { clientVersion: { minor: string } };
  minor = Number.parseInt(version.clientVersion.minor, 10);
});
afterAll(async () => {
  await api?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

// HOME holds kubectl's discovery and OpenAPI cache, fresh for this file.
const env = () => ({ ...process.env, HOME: home, KUBECONFIG: api.kubeconfigPath });

/** Runs kubectl to its end: exit code, stdout and stderr. */
function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, args, { env: env(), cwd: home, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Writes a manifest into the scratch folder and returns its path. */
function manifest(name: string, text: string): string {
  const file = path.join(home, name);
  writeFileSync(file, text);
  return file;
}

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
`;

const replicasOf = () => (api.store.read('apps/v1', 'Deployment', 'web', 'team') as { spec?: { replicas?: number } } | undefined)?.spec?.replicas;

describe(`kubectl (${KUBECTL}) against the mock API`, () => {
  it('get lists through discovery', async () => {
    const { code, stdout, stderr } = await kubectl('get', 'configmaps', '-n', 'team', '-o', 'name');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe('configmap/seeded\n');
  });

  it('get -w prints the list, then each change made through the store, until stopped', async () => {
    const child = spawn(KUBECTL, ['get', 'configmaps', '-n', 'team', '-w', '-o', 'jsonpath={.metadata.name}={.data.k}{"\\n"}'], { env: env(), cwd: home });
    let out = '';
    const waiters: { lines: number; resolve: () => void }[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (const w of waiters.filter((w) => out.split('\n').length > w.lines)) w.resolve();
    });
    const lines = (n: number) => new Promise<void>((resolve) => (out.split('\n').length > n ? resolve() : waiters.push({ lines: n, resolve })));
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    await lines(1);
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', namespace: 'team' }, data: { k: 'a' } });
    await lines(2);
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', namespace: 'team' }, data: { k: 'b' } });
    await lines(3);
    api.store.delete(api.store.entryFor('v1', 'ConfigMap'), 'team', 'watched');
    await lines(4);
    child.kill('SIGTERM');
    await closed;
    expect(out).toBe('seeded=1\nwatched=a\nwatched=b\nwatched=b\n');
  });

  it('apply creates, then configures; its client-side validation reads /openapi/v2 and names an unknown field', async () => {
    const file = manifest('web.yaml', deployment(1));
    expect(await kubectl('apply', '-f', file)).toEqual({ code: 0, stdout: 'deployment.apps/web created\n', stderr: '' });
    writeFileSync(file, deployment(2));
    expect(await kubectl('apply', '-f', file)).toEqual({ code: 0, stdout: 'deployment.apps/web configured\n', stderr: '' });
    expect(replicasOf()).toBe(2);
    // Later kubectl leaves validation to the server (fieldValidation=Strict), which the mock API does not do yet.
    if (minor >= 27) return;
    const bad = manifest('bad.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad, namespace: team}\ndatta: {a: b}\n');
    const refused = await kubectl('apply', '-f', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unknown field "datta" in io.k8s.api.core.v1.ConfigMap');
  });

  it('apply --server-side takes over from client-side apply without a conflict, and records its manager', async () => {
    // The same values as client-side apply left: co-owned, no conflict (a changed replicas would be one, as in kube).
    const file = manifest('web-ssa.yaml', deployment(2));
    const { code, stderr } = await kubectl('apply', '--server-side', '-f', file);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const stored = api.store.read('apps/v1', 'Deployment', 'web', 'team') as { metadata: { managedFields: { manager: string; operation: string }[] } };
    expect(stored.metadata.managedFields.map((m) => [m.manager, m.operation])).toContainEqual(['kubectl', 'Apply']);
    expect(replicasOf()).toBe(2);
  });

  it('patch and scale change the object; explain reads the schema', async () => {
    expect((await kubectl('patch', 'deployment', 'web', '-n', 'team', '-p', '{"spec":{"replicas":4}}')).stdout).toBe('deployment.apps/web patched\n');
    expect(replicasOf()).toBe(4);
    expect((await kubectl('scale', 'deployment', 'web', '-n', 'team', '--replicas=5')).stdout).toBe('deployment.apps/web scaled\n');
    expect(replicasOf()).toBe(5);
    const explained = await kubectl('explain', 'deployment.spec.replicas');
    expect(explained.code).toBe(0);
    expect(explained.stdout).toMatch(/KIND: +Deployment\n(.*\n)*FIELD: +replicas <integer>/);
  });

  it('create configmap sends protobuf, which the mock API decodes', async () => {
    const created = await kubectl('create', 'configmap', 'made', '-n', 'team', '--from-literal=a=b');
    expect(created).toEqual({ code: 0, stdout: 'configmap/made created\n', stderr: '' });
    expect((api.store.read('v1', 'ConfigMap', 'made', 'team') as { data?: unknown }).data).toEqual({ a: 'b' });
  });

  it('auth can-i asks the authorizer through a SelfSubjectAccessReview', async () => {
    api.authorizer = (attributes) => ({ decision: attributes.verb === 'delete' ? 'deny' : 'allow' });
    try {
      expect(await kubectl('auth', 'can-i', 'create', 'configmaps', '-n', 'team')).toMatchObject({ code: 0, stdout: 'yes\n' });
      expect(await kubectl('auth', 'can-i', 'delete', 'configmaps', '-n', 'team')).toMatchObject({ code: 1, stdout: 'no\n' });
    } finally {
      api.authorizer = () => ({ decision: 'allow' });
    }
  });

  it('delete removes the objects', async () => {
    expect((await kubectl('delete', 'deployment', 'web', '-n', 'team')).stdout).toBe('deployment.apps "web" deleted\n');
    expect((await kubectl('delete', 'configmap', 'made', '-n', 'team')).stdout).toBe('configmap "made" deleted\n');
    expect(api.store.read('apps/v1', 'Deployment', 'web', 'team')).toBeUndefined();
  });
});
