// Debian's python3-kubernetes (22.6.0 on bookworm) against the mock API over real TLS, through the kubeconfig
// startMockApi writes: python-client.py lists, creates, patches, streams a watch and uses the DynamicClient.
// CI installs the package in .ci/run; $PYTHON names another interpreter that has it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startMockApi, type MockApi } from '../../../lib/mockapi';

jest.setTimeout(180_000);

const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

let api: MockApi;
beforeAll(async () => {
  if (!existsSync(PYTHON))
    throw new Error(`${PYTHON} is missing: install Debian's python3-kubernetes (apt-get install python3-kubernetes); CI does it in .ci/run`);
  api = await startMockApi({ seed: 22, intercept: false, namespaces: [{ name: 'team' }] });
});
afterAll(() => api?.close());

it('python3-kubernetes lists, creates, patches, watches and discovers through the DynamicClient', async () => {
  api.store.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'seeded', namespace: 'team' }, data: { k: '1' } });
  const script = path.join(__dirname, 'python-client.py');
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(PYTHON, [script, api.kubeconfigPath], { timeout: 120_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }, (error, out, err) =>
      resolve({ code: error ? 1 : 0, stdout: out, stderr: err }),
    );
  });
  expect({ code, stderr: stderr.includes('Traceback') ? stderr : '' }).toEqual({ code: 0, stderr: '' });
  const steps = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as [string, unknown]);
  expect(steps).toEqual([
    ['list', ['seeded']],
    ['create', ['py', true]],
    ['patch', { a: '2' }],
    [
      'watch',
      [
        ['ADDED', 'py', { a: '1' }],
        ['MODIFIED', 'py', { a: '2' }],
        ['DELETED', 'py', { a: '2' }],
      ],
    ],
    ['dynamic create', ['dyn', 1]],
    ['dynamic list', ['dyn']],
  ]);
});
