import path from 'node:path';
import { explainCommand } from '../../lib/cli/explain';

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

async function run(args: Partial<Parameters<typeof explainCommand>[0]>): Promise<string> {
  let text = '';
  const code = await explainCommand({ manifests: [fixture('explain-webhooks.yaml')], review: fixture('deployment-scale-review.yaml'), json: false, ...args }, (t) => (text += t));
  expect(code).toBe(0);
  return text;
}

describe('admission-harness explain', () => {
  it('prints each webhook in call order with its decision and reason', async () => {
    expect(await run({ namespaces: fixture('namespaces.yaml') })).toBe(
      [
        'UPDATE deployments/scale.apps shop/web',
        '  labels.example.com: skipped — objectSelector {app=web} matched neither object nor oldObject',
        '  scale.example.com: called — rules[0] matched UPDATE apps/v1 deployments/scale; receives kind autoscaling/v1 Scale, resource apps/v1 deployments/scale',
        '  deployments-only.example.com: skipped — no rule matched UPDATE apps/v1 deployments/scale or any equivalent resource',
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

  it('names the field of a malformed review', async () => {
    await expect(run({ review: fixture('namespaces.yaml') })).rejects.toThrow(/namespaces\.yaml: expected an AdmissionReview or an AdmissionRequest object/);
  });
});
