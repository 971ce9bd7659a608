import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { explainCommand } from '../../lib/cli/explain';
import { cli } from './captured';

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

async function run(args: Partial<Parameters<typeof explainCommand>[0]>): Promise<string> {
  let text = '';
  const code = await explainCommand(
    { manifests: [fixture('explain-webhooks.yaml')], review: fixture('deployment-scale-review.yaml'), json: false, ...args },
    (t) => (text += t),
  );
  expect(code).toBe(0);
  return text;
}

describe('admission-harness explain', () => {
  it('prints each webhook in call order with its decision and reason', async () => {
    expect(await run({ namespaces: fixture('namespaces.yaml') })).toBe(
      [
        'UPDATE deployments/scale.apps shop/web',
        'mutation phase:',
        '  plugin NamespaceLifecycle (mutation): acts — namespace "shop" exists',
        '  plugin LimitRanger (mutation): not involved — handles only pod creates, pods/resize updates and PersistentVolumeClaim creates and updates',
        '  plugin ServiceAccount (mutation): not involved — handles only pod creates',
        '  plugin TaintNodesByCondition (mutation): not involved — handles only node creates',
        '  plugin Priority (mutation): not involved — handles only pods (no subresource) in this phase',
        '  plugin DefaultTolerationSeconds (mutation): not involved — handles only pod creates',
        '  plugin DefaultStorageClass (mutation): not involved — handles only PersistentVolumeClaim creates',
        '  plugin StorageObjectInUseProtection (mutation): not involved — handles only PersistentVolume, PersistentVolumeClaim and VolumeAttributesClass creates',
        '  plugin RuntimeClass (mutation): not involved — handles only pod creates',
        '  plugin DefaultIngressClass (mutation): not involved — handles only Ingress creates',
        '  plugin PodTopologyLabels (mutation): not involved — handles only pods/binding and pod creates',
        '  labels.example.com: skipped — objectSelector {app=web} matched neither object nor oldObject',
        'validation phase:',
        '  plugin LimitRanger (validation): not involved — handles only pod creates, pods/resize updates and PersistentVolumeClaim creates and updates',
        '  plugin ServiceAccount (validation): not involved — handles only pods',
        '  plugin PodSecurity (validation): not involved — deployments/scale: only the workload itself is checked',
        '  plugin Priority (validation): not involved — handles only PriorityClass creates and updates in this phase',
        '  plugin PersistentVolumeClaimResize (validation): not involved — handles only PersistentVolumeClaim updates',
        '  plugin RuntimeClass (validation): not involved — handles only pod creates',
        '  scale.example.com: called — rules[0] matched UPDATE apps/v1 deployments/scale; receives kind autoscaling/v1 Scale, resource apps/v1 deployments/scale',
        '  deployments-only.example.com: skipped — no rule matched UPDATE apps/v1 deployments/scale or any equivalent resource',
        '  plugin ResourceQuota (validation): not involved — deployments/scale changes no quota usage',
      ].join('\n'),
    );
  });

  it('reports the 404 kube-apiserver returns for an undeclared namespace', async () => {
    const report = JSON.parse(await run({ json: true })) as { webhooks: { name: string; decision: string; reason: string }[] };
    expect(report.webhooks.find((w) => w.name === 'scale.example.com')).toEqual({
      configuration: 'scale-guard',
      name: 'scale.example.com',
      type: 'validating',
      decision: 'error',
      reason: 'namespaces "shop" not found',
    });
  });

  it('prints JSON with the kind and resource a called webhook receives', async () => {
    const report = JSON.parse(await run({ json: true, namespaces: fixture('namespaces.yaml') })) as { webhooks: Record<string, unknown>[] };
    expect(report.webhooks[1]).toEqual({
      configuration: 'scale-guard',
      name: 'scale.example.com',
      type: 'validating',
      decision: 'called',
      reason: 'rules[0] matched UPDATE apps/v1 deployments/scale',
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
    });
  });

  it('says where NamespaceLifecycle refuses a request in an undeclared namespace, before anything else', async () => {
    const lines = (await run({})).split('\n');
    expect(lines[2]).toBe(
      '  plugin NamespaceLifecycle (mutation): refuses — namespaces "shop" not found (404): the request stops here; the steps below are judged as if it existed',
    );
    expect(lines).toContain('  scale.example.com: rejects the request — namespaces "shop" not found');
  });

  it('a pod create: every built-in plugin in its place in kube-apiserver’s order, the admission policies and webhooks between', async () => {
    const text = await run({
      review: fixture('pod-create-review.yaml'),
      namespaces: fixture('namespaces.yaml'),
      manifests: [fixture('explain-webhooks.yaml'), fixture('policies.yaml'), fixture('mutating-policy.yaml')],
    });
    expect(text).toBe(
      [
        'CREATE pods shop/web',
        'mutation phase:',
        '  plugin NamespaceLifecycle (mutation): acts — namespace "shop" exists; creating in a namespace being terminated is refused',
        "  plugin LimitRanger (mutation): acts — gives containers the namespace's LimitRange default requests and limits (if it has any)",
        '  plugin ServiceAccount (mutation): acts — defaults serviceAccountName, requires the account to exist, mounts the kube-api-access token volume',
        '  plugin TaintNodesByCondition (mutation): not involved — handles only node creates',
        '  plugin Priority (mutation): acts — resolves spec.priorityClassName (else the globalDefault class) into spec.priority and preemptionPolicy; an unknown class is refused',
        '  plugin DefaultTolerationSeconds (mutation): acts — adds 300 s NoExecute tolerations of not-ready and unreachable nodes, unless the pod has them',
        '  plugin DefaultStorageClass (mutation): not involved — handles only PersistentVolumeClaim creates',
        '  plugin StorageObjectInUseProtection (mutation): not involved — handles only PersistentVolume, PersistentVolumeClaim and VolumeAttributesClass creates',
        "  plugin RuntimeClass (mutation): acts — a pod naming a RuntimeClass gets the class's overhead and node scheduling; an unknown class is refused",
        '  plugin DefaultIngressClass (mutation): not involved — handles only Ingress creates',
        '  plugin PodTopologyLabels (mutation): not involved — the pod names no node yet (the Binding gets the labels)',
        '  MutatingAdmissionPolicy add-team with binding add-team: evaluated — rules[0] matched CREATE v1 pods',
        '  labels.example.com: skipped — objectSelector {app=web} matched neither object nor oldObject',
        'validation phase:',
        "  plugin LimitRanger (validation): acts — checks the containers' requests and limits against the namespace's LimitRanges (min, max, ratio)",
        '  plugin ServiceAccount (validation): acts — the account the pod names must exist (a webhook that renames it is refused) and, if it enforces mountable secrets, the pod uses only its secrets',
        "  plugin PodSecurity (validation): acts — judges the pod against the namespace's Pod Security levels: enforce refuses, audit annotates, warn warns",
        '  plugin Priority (validation): not involved — handles only PriorityClass creates and updates in this phase',
        '  plugin PersistentVolumeClaimResize (validation): not involved — handles only PersistentVolumeClaim updates',
        "  plugin RuntimeClass (validation): acts — refuses an unknown RuntimeClass, and a spec.overhead other than its class's",
        '  ValidatingAdmissionPolicy guarded with binding guarded-binding: evaluated — rules[0] matched CREATE v1 pods; validationActions Deny',
        '  scale.example.com: skipped — no rule matched CREATE v1 pods or any equivalent resource',
        '  deployments-only.example.com: skipped — no rule matched CREATE v1 pods or any equivalent resource',
        "  plugin ResourceQuota (validation): acts — charges the pod's count, requests and limits to the namespace's ResourceQuotas (if it has any)",
      ].join('\n'),
    );
  });

  it('a ConfigMap create: only NamespaceLifecycle and ResourceQuota handle it', async () => {
    const lines = (await run({ review: fixture('configmap-create-review.yaml'), namespaces: fixture('namespaces.yaml') })).split('\n');
    const plugins = lines.filter((line) => line.startsWith('  plugin '));
    expect(plugins).toHaveLength(18);
    expect(plugins.filter((line) => !/: not involved — /.test(line))).toEqual([
      '  plugin NamespaceLifecycle (mutation): acts — namespace "shop" exists; creating in a namespace being terminated is refused',
      "  plugin ResourceQuota (validation): acts — charges count/configmaps to the namespace's ResourceQuotas (if it has any)",
    ]);
    expect(plugins).toContain('  plugin PodSecurity (validation): not involved — neither a pod, a workload with a pod template, nor a namespace');
  });

  it('--enable-admission-plugins puts the off-by-default plugins named in their place in the chain, and refuses a name both on and off', async () => {
    const args = [
      'explain',
      '--manifests',
      fixture('explain-webhooks.yaml'),
      '--review',
      fixture('pod-create-review.yaml'),
      '--namespaces',
      fixture('namespaces.yaml'),
    ];
    const plain = await cli(...args);
    expect(plain.stdout).not.toContain('AlwaysPullImages');
    const result = await cli(...args, '--enable-admission-plugins', 'PodNodeSelector,AlwaysPullImages', '--enable-admission-plugins', 'DenyServiceExternalIPs');
    expect(result.code).toBe(0);
    const plugins = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('  plugin '))
      .map((line) => line.replace(/ —.*/, ''));
    expect(plugins.slice(3, 7)).toEqual([
      '  plugin TaintNodesByCondition (mutation): not involved',
      '  plugin AlwaysPullImages (mutation): acts',
      '  plugin PodNodeSelector (mutation): acts',
      '  plugin Priority (mutation): acts',
    ]);
    expect(plugins).toContain('  plugin DenyServiceExternalIPs (validation): not involved');
    expect(plugins.filter((line) => line.includes('PodTolerationRestriction'))).toEqual([]);
    const both = await cli(...args, '--enable-admission-plugins', 'AlwaysPullImages', '--disable-admission-plugins', 'AlwaysPullImages');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--enable-admission-plugins and --disable-admission-plugins both name "AlwaysPullImages"');
  });

  it('--disable-admission-plugins shows the plugins named as disabled, in both phases, and refuses a name it does not know', async () => {
    const args = [
      'explain',
      '--manifests',
      fixture('explain-webhooks.yaml'),
      '--review',
      fixture('pod-create-review.yaml'),
      '--namespaces',
      fixture('namespaces.yaml'),
    ];
    const result = await cli(...args, '--disable-admission-plugins', 'ServiceAccount,PodSecurity', '--disable-admission-plugins', 'ResourceQuota');
    expect(result.code).toBe(0);
    const disabled = result.stdout.split('\n').filter((line) => / disabled — /.test(line));
    expect(disabled).toEqual([
      '  plugin ServiceAccount (mutation): disabled — turned off by --disable-admission-plugins',
      '  plugin ServiceAccount (validation): disabled — turned off by --disable-admission-plugins',
      '  plugin PodSecurity (validation): disabled — turned off by --disable-admission-plugins',
      '  plugin ResourceQuota (validation): disabled — turned off by --disable-admission-plugins',
    ]);
    expect(result.stdout).toContain('  plugin LimitRanger (mutation): acts — ');
    const unknown = await cli(...args, '--disable-admission-plugins', 'PodSecurty');
    expect(unknown.code).toBe(2);
    // As `check` says it (test/cli/policies.test.ts).
    expect(unknown.stderr).toContain('--disable-admission-plugins names "PodSecurty" (did you mean "PodSecurity"?), which the harness does not run');
  });

  it('--json lists the whole chain in order as `chain`, beside the webhooks and policies as before', async () => {
    const report = JSON.parse(
      await run({
        json: true,
        review: fixture('pod-create-review.yaml'),
        namespaces: fixture('namespaces.yaml'),
        manifests: [fixture('explain-webhooks.yaml'), fixture('policies.yaml'), fixture('mutating-policy.yaml')],
        disablePlugins: ['Priority'],
      }),
    ) as { webhooks: unknown[]; policies: unknown[]; chain: { phase: string; kind: string; name: string; decision: string }[] };
    expect(Object.keys(report)).toEqual(['webhooks', 'policies', 'chain']);
    expect(report.webhooks).toHaveLength(3);
    expect(report.policies).toEqual([
      { policy: 'guarded', binding: 'guarded-binding', decision: 'called', reason: 'rules[0] matched CREATE v1 pods; validationActions Deny' },
    ]);
    expect(report.chain.map((s) => `${s.phase} ${s.kind} ${s.name} ${s.decision}`)).toEqual([
      'mutation plugin NamespaceLifecycle acts',
      'mutation plugin LimitRanger acts',
      'mutation plugin ServiceAccount acts',
      'mutation plugin TaintNodesByCondition not-involved',
      'mutation plugin Priority disabled',
      'mutation plugin DefaultTolerationSeconds acts',
      'mutation plugin DefaultStorageClass not-involved',
      'mutation plugin StorageObjectInUseProtection not-involved',
      'mutation plugin RuntimeClass acts',
      'mutation plugin DefaultIngressClass not-involved',
      'mutation plugin PodTopologyLabels not-involved',
      'mutation mutating-policy add-team called',
      'mutation webhook labels.example.com skipped',
      'validation plugin LimitRanger acts',
      'validation plugin ServiceAccount acts',
      'validation plugin PodSecurity acts',
      'validation plugin Priority disabled',
      'validation plugin PersistentVolumeClaimResize not-involved',
      'validation plugin RuntimeClass acts',
      'validation validating-policy guarded called',
      'validation webhook scale.example.com skipped',
      'validation webhook deployments-only.example.com skipped',
      'validation plugin ResourceQuota acts',
    ]);
    expect(report.chain[2]).toEqual({
      phase: 'mutation',
      kind: 'plugin',
      name: 'ServiceAccount',
      involved: true,
      decision: 'acts',
      reason: 'defaults serviceAccountName, requires the account to exist, mounts the kube-api-access token volume',
    });
    expect(report.chain[4]).toEqual({
      phase: 'mutation',
      kind: 'plugin',
      name: 'Priority',
      involved: false,
      decision: 'disabled',
      reason: 'turned off by --disable-admission-plugins',
    });
    expect(report.chain[11]).toEqual({
      phase: 'mutation',
      kind: 'mutating-policy',
      name: 'add-team',
      binding: 'add-team',
      decision: 'called',
      reason: 'rules[0] matched CREATE v1 pods',
    });
    expect(report.chain[12]).toEqual({
      phase: 'mutation',
      kind: 'webhook',
      name: 'labels.example.com',
      configuration: 'labels',
      decision: 'skipped',
      reason: 'objectSelector {app=web} matched neither object nor oldObject',
    });
  });

  it('given a plain object instead of a review, names the review command that makes one, which works', async () => {
    const pod = fixture('pod.yaml');
    const failure = await cli('explain', '--manifests', fixture('explain-webhooks.yaml'), '--review', pod);
    expect(failure.code).toBe(2);
    const command = `admission-harness review pods CREATE --namespace shop --object ${pod} > review.json`;
    expect(failure.stderr).toBe(
      `admission-harness: --review ${pod} holds a Pod, not an AdmissionReview: explain needs the request too (its operation, user, namespace)\n  hint: make the review of it, then explain that: ${command} && admission-harness explain --review review.json … (UPDATE or DELETE for those requests)\n`,
    );
    // The command it names, run as named: its review is one explain takes.
    const made = await cli(
      ...command
        .replace(/^admission-harness /, '')
        .replace(/ > review\.json$/, '')
        .split(' '),
    );
    expect(made.code).toBe(0);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-explain-'));
    try {
      writeFileSync(path.join(dir, 'review.json'), made.stdout);
      const text = await run({ review: path.join(dir, 'review.json'), namespaces: fixture('namespaces.yaml') });
      expect(text.split('\n')[0]).toBe('CREATE pods shop/web');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A kind of a group: the resource as `review` names it.
    const deployment = path.join(os.tmpdir(), `ah-deployment-${process.pid}.yaml`);
    writeFileSync(deployment, 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n');
    try {
      await expect(run({ review: deployment })).rejects.toThrow(`review deployments.apps CREATE --object ${deployment} > review.json`);
    } finally {
      rmSync(deployment);
    }
  });

  it('says the --review and --namespaces file formats in its --help', async () => {
    const help = (await cli('explain', '--help')).stdout;
    expect(help).toContain(
      '--review FILE: one AdmissionReview (or its request), YAML or JSON, as `review` prints it; for an\n           object alone make one first: admission-harness review pods CREATE --object pod.yaml > review.json',
    );
    expect(help).toContain(
      "--namespaces FILE: the cluster's namespaces and their labels, for namespaceSelectors: Namespace\n           objects (or a NamespaceList), or entries `- name: shop` with `labels: {team: shop}`, YAML or JSON",
    );
  });

  it('names the field of a malformed review', async () => {
    await expect(run({ review: fixture('namespaces.yaml') })).rejects.toThrow(/namespaces\.yaml: expected an AdmissionReview or an AdmissionRequest object/);
  });
});
