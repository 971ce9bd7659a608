// kubectl scale against a mock API that admits its writes (`admitWrites`), over real TLS with nothing but the
// kubeconfig: the scale subresource's write reaches the webhooks as an UPDATE of an autoscaling/v1 Scale, as the
// deployments-scale-kubectl capture (recorded on a real kube-apiserver v1.36.2) shows, and a denial reaches kubectl
// with kube's text. $KUBECTL names kubectl as in kubectl.test.ts; without it, /usr/bin/kubectl.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHarness, stub, type Harness, type HarnessOptions } from '../../../lib';
import type { KubeObject } from '../../../lib/kube/admission';
import { startMockApi, type MockApi } from '../../../lib/mockapi';
import { mutating, validating } from '../../dispatch/helpers';
import { actionRequest } from '../../review/captures';

jest.setTimeout(180_000);

const KUBECTL = process.env.KUBECTL ?? '/usr/bin/kubectl';
const scaleRules = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['deployments/scale'] }];

const deployment: KubeObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'cap' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
  },
};

let api: MockApi;
let h: Harness;
let home: string;

async function cluster(manifests: Record<string, unknown>[], stubs: HarnessOptions['stubs']): Promise<void> {
  if (!existsSync(KUBECTL))
    throw new Error(`${KUBECTL} is missing: install Debian's kubectl (apt-get install kubernetes-client) or set KUBECTL; CI does it in .ci/run`);
  home = mkdtempSync(path.join(os.tmpdir(), 'ah-kubectl-admitted-'));
  api = await startMockApi({ seed: 20, intercept: false, admitWrites: true, namespaces: [{ name: 'cap' }] });
  api.store.put(deployment);
  h = await createHarness({ seed: 20, mockApi: api, manifests, ...(stubs ? { stubs } : {}) });
}

afterEach(async () => {
  await h?.close();
  await api?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

function kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, HOME: home, KUBECONFIG: api.kubeconfigPath };
  return new Promise((resolve) => {
    execFile(KUBECTL, args, { env, cwd: home, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

it('deployments-scale-kubectl: kubectl scale is an UPDATE of the deployment’s autoscaling/v1 Scale', async () => {
  await cluster([mutating('m', { name: 'observe.example.com', rules: scaleRules })], { 'observe.example.com': stub.allow() });
  const scaled = await kubectl('scale', 'deployment', 'web', '-n', 'cap', '--replicas=3');
  expect([scaled.code, scaled.stdout]).toEqual([0, 'deployment.apps/web scaled\n']);
  const recorded = actionRequest('deployments-scale-kubectl.json');
  const sent = h.stub('observe.example.com').received[0]?.request;
  expect([sent?.operation, sent?.kind, sent?.resource, sent?.subResource, sent?.name, sent?.namespace, sent?.options?.kind]).toEqual([
    recorded.operation,
    recorded.kind,
    recorded.resource,
    recorded.subResource,
    recorded.name,
    'cap',
    recorded.options?.kind,
  ]);
  expect([(sent?.object as { spec?: unknown }).spec, (sent?.oldObject as { spec?: unknown }).spec]).toEqual([{ replicas: 3 }, { replicas: 1 }]);
  expect((api.store.read('apps/v1', 'Deployment', 'web', 'cap')?.spec as { replicas?: number }).replicas).toBe(3);
});

it('kubectl scale refused by a validating webhook prints kube’s text, and the replicas stay', async () => {
  await cluster([validating('v', { name: 'deny.example.com', rules: scaleRules })], { 'deny.example.com': stub.deny({ message: 'replicas are frozen' }) });
  const refused = await kubectl('scale', 'deployment', 'web', '-n', 'cap', '--replicas=3');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toBe('Error from server: admission webhook "deny.example.com" denied the request: replicas are frozen\n');
  expect((api.store.read('apps/v1', 'Deployment', 'web', 'cap')?.spec as { replicas?: number }).replicas).toBe(1);
});
