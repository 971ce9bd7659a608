// `explain` for the other webhooks kube-apiserver calls: where ImagePolicyWebhook acts in the chain
// (`--image-policy-config`, placed as AllOrderedPlugins in pkg/kubeapiserver/options/plugins.go places it), and
// which ConversionReviews a custom resource's request and reads at other versions make.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './captured';

jest.setTimeout(120_000);

const root = path.join(__dirname, '../..');
const imagePolicy = path.join(root, 'examples/image-policy/deploy/admission.yaml');
const crd = path.join(root, 'examples/conversion/deploy/crd.yaml');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'explain-backends-'));
const cwd = process.cwd();
beforeAll(() => process.chdir(root));
afterAll(() => process.chdir(cwd));

/** The AdmissionReview `review` prints for these arguments, written to a file for --review. */
async function reviewFile(name: string, ...args: string[]): Promise<string> {
  const made = await cli('review', ...args);
  expect(made.code).toBe(0);
  const file = path.join(tmp, `${name}.json`);
  writeFileSync(file, made.stdout);
  return file;
}

function file(name: string, text: string): string {
  const at = path.join(tmp, name);
  writeFileSync(at, text);
  return at;
}

const validationPlugins = (text: string) =>
  (text.split('validation phase:\n')[1] ?? '')
    .split('\n')
    .map((line) => /^ {2}plugin (\S+) \(validation\)/.exec(line)?.[1])
    .filter(Boolean);

describe('explain --image-policy-config', () => {
  it('shows ImagePolicyWebhook after ServiceAccount and before PodSecurity, with the ImageReview it sends', async () => {
    const pod = file(
      'pod.yaml',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop, annotations: {alpha.image-policy.k8s.io/break-glass: "true", team: shop}}\nspec:\n  containers: [{name: app, image: nginx:1.27}]\n  initContainers: [{name: init, image: busybox:1.36}]\n',
    );
    const review = await reviewFile('pod-create', 'pods', 'CREATE', '--namespace', 'shop', '--object', pod);
    const run = await cli('explain', '--review', review, '--image-policy-config', imagePolicy);
    expect(run.code).toBe(0);
    expect(validationPlugins(run.stdout).slice(0, 4)).toEqual(['LimitRanger', 'ServiceAccount', 'ImagePolicyWebhook', 'PodSecurity']);
    expect(run.stdout).toContain(
      '  plugin ImagePolicyWebhook (validation): acts — sends an ImageReview (containers then initContainers: nginx:1.27, busybox:1.36; annotations alpha.image-policy.k8s.io/break-glass) to https://image-policy.example.com:8443/review?timeout=30s; a denial refuses the request (403); answers cached by spec (allow 50 s, deny 50 s); a backend failure refuses it (defaultAllow: false)',
    );
    const json = await cli('explain', '--review', review, '--image-policy-config', imagePolicy, '--json');
    const chain = (JSON.parse(json.stdout) as { chain: { name?: string; decision?: string; phase: string }[] }).chain;
    expect(chain.find((s) => s.name === 'ImagePolicyWebhook')).toMatchObject({ phase: 'validation', decision: 'acts' });
  });

  it('reviews the ephemeral containers alone on pods/ephemeralcontainers, and leaves other subresources and kinds alone', async () => {
    const old = file('old.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers: [{name: app, image: nginx:1.27}]\n');
    const debugged = file(
      'debugged.yaml',
      'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers: [{name: app, image: nginx:1.27}]\n  ephemeralContainers: [{name: debug, image: busybox:1.36}]\n',
    );
    const ephemeral = await reviewFile(
      'ephemeral',
      'pods/ephemeralcontainers',
      'UPDATE',
      '--namespace',
      'shop',
      '--name',
      'web',
      '--object',
      debugged,
      '--old-object',
      old,
    );
    expect((await cli('explain', '--review', ephemeral, '--image-policy-config', imagePolicy)).stdout).toContain(
      'plugin ImagePolicyWebhook (validation): acts — sends an ImageReview (the ephemeral containers’ images: busybox:1.36)',
    );
    const status = await reviewFile('status', 'pods/status', 'UPDATE', '--namespace', 'shop', '--name', 'web', '--object', old, '--old-object', old);
    expect((await cli('explain', '--review', status, '--image-policy-config', imagePolicy)).stdout).toContain(
      'plugin ImagePolicyWebhook (validation): not involved — the plugin ignores pods/status',
    );
    const deployment = await reviewFile('deployment', 'deployments.apps', 'CREATE', '--namespace', 'shop');
    expect((await cli('explain', '--review', deployment, '--image-policy-config', imagePolicy)).stdout).toContain(
      'plugin ImagePolicyWebhook (validation): not involved — the plugin reviews pods only',
    );
    expect((await cli('explain', '--review', deployment, '--manifests', 'examples/pod-defaults/deploy/webhooks.yaml')).stdout).not.toContain(
      'ImagePolicyWebhook',
    );
  });
});

describe('explain for a custom resource with a conversion webhook', () => {
  const backup = (version: string, spec: string) =>
    file(`backup-${version}.yaml`, `apiVersion: example.com/${version}\nkind: Backup\nmetadata: {name: nightly, namespace: shop}\nspec: ${spec}\n`);

  it('a write at another version than the stored one: two ConversionReviews, and one per object for reads', async () => {
    const review = await reviewFile(
      'backup-v2',
      'backups.example.com',
      'CREATE',
      '--namespace',
      'shop',
      '--object',
      backup('v2', '{target: {bucket: shop-backups}, retention: {days: 30}}'),
      '--crd',
      crd,
    );
    const run = await cli('explain', '--review', review, '--manifests', crd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /\nconversion \(backups\.example\.com, strategy Webhook, stored at v1\):\n {2}this CREATE at v2: the object to example\.com\/v1 to be stored, and the stored object back to v2 for the answer, each a ConversionReview to https:\/\/backup-conversion\.backup-system\.svc:443\/convert\?timeout=30s\n {2}a GET, LIST or WATCH at v2: each object from v1, a ConversionReview to https:\/\/backup-conversion\.backup-system\.svc:443\/convert\?timeout=30s per object \(a LIST of 3 sends 3\)\n$/,
    );
    const json = JSON.parse((await cli('explain', '--review', review, '--manifests', crd, '--json')).stdout) as { conversion: object };
    expect(json.conversion).toMatchObject({ crd: 'backups.example.com', strategy: 'Webhook', storage: 'v1', version: 'v2' });
  });

  it('a write at the storage version converts nothing', async () => {
    const review = await reviewFile(
      'backup-v1',
      'backups.example.com',
      'CREATE',
      '--namespace',
      'shop',
      '--object',
      backup('v1', '{bucket: shop-backups, retentionDays: 30}'),
      '--crd',
      crd,
    );
    expect((await cli('explain', '--review', review, '--manifests', crd)).stdout).toContain('  this CREATE at the storage version v1: no conversion');
  });
});
