// kubectl get prints the Tables the mock API serves: kube's columns, from kube's printers, the Age cells from
// the API's clock (faked here, so every age is fixed). CI runs Debian's kubectl, named by $KUBECTL; without
// it, /usr/bin/kubectl.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMockApi, type MockApi } from '../../../lib/mockapi';
import { freezeDate } from '../date-clock';

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const SEEDED = '2026-03-01T08:00:00Z';
// 100 days and 12 hours later: every age reads 100d.
const READ = Date.parse(SEEDED) + (100 * 24 + 12) * 3_600_000;

let api: MockApi;
let home: string;
let clock: ReturnType<typeof freezeDate>;

beforeAll(async () => {
  if (!existsSync(KUBECTL))
    throw new Error(`${KUBECTL} is missing: install Debian's kubectl (apt-get install kubernetes-client) or set KUBECTL; CI does it in .ci/run`);
  home = mkdtempSync(path.join(os.tmpdir(), 'ah-kubectl-tables-'));
  // The API (and its certificate) starts on the real clock; the objects are made on the test's.
  api = await startMockApi({ seed: 21, intercept: false, namespaces: [{ name: 'team' }, { name: 'o4-kubectl' }] });
  clock = freezeDate(SEEDED);
  api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seeded', namespace: 'team' }, data: { k: '1' } });
  api.store.put({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'team' },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: 'Running', podIPs: [{ ip: '10.1.0.7' }], containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: {} } }] },
  });
  clock.set(READ);
});
afterAll(async () => {
  clock?.restore();
  await api?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, HOME: home, KUBECONFIG: api.kubeconfigPath };
    execFile(KUBECTL, args, { env, cwd: home, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

describe(`kubectl get (${KUBECTL}) prints the mock API's Tables`, () => {
  it("get configmaps: NAME DATA AGE, kubectl-get-watch's columns", async () => {
    const { code, stdout, stderr } = await kubectl('get', 'configmaps', '-n', 'team');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe('NAME     DATA   AGE\nseeded   1      100d\n');
  });

  it('get pods, and -o wide with the priority-1 columns', async () => {
    const { code, stdout, stderr } = await kubectl('get', 'pods', '-n', 'team');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe('NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          100d\n');
    const wide = await kubectl('get', 'pods', '-n', 'team', '-o', 'wide');
    expect(wide.stdout.split('\n')[0]?.split(/\s{2,}/)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    expect(wide.stdout.split('\n')[1]?.split(/\s{2,}/)).toEqual(['web', '1/1', 'Running', '0', '100d', '10.1.0.7', 'node-1', '<none>', '<none>']);
  });

  it("kubectl-get-watch: get -w prints the watch event's Table row under the first event's headers, as recorded", async () => {
    const recorded = JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', 'kubectl-get-watch.json'), 'utf8')) as {
      kubectl: { stdoutTail: string[] };
    };
    const env = { ...process.env, HOME: home, KUBECONFIG: api.kubeconfigPath };
    const child = spawn(KUBECTL, ['get', 'configmaps', '-n', 'o4-kubectl', '-w'], { env, cwd: home });
    let out = '';
    const printed = new Promise<void>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.split('\n').length > 2) resolve();
      }),
    );
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    // The namespace is empty, so kubectl prints nothing until an event: wait for its watch to be open (a condition, not a time).
    while (api.watches.size === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wcm', namespace: 'o4-kubectl' }, data: { a: 'b' } });
    await printed;
    child.kill('SIGTERM');
    await closed;
    expect(out.split('\n')).toEqual(recorded.kubectl.stdoutTail);
  });
});
