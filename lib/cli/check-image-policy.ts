import { writeFileSync } from 'node:fs';
import { runImagePolicyBattery } from '../battery/image-policy/run';
import { htmlFromBackendBattery } from '../report';
import { IMAGE_POLICY_CHECK_IDS } from '../battery/image-policy/checks';
import { HarnessError } from '../errors';
import { connectImagePolicyBackend } from '../imagepolicy/connect';
import { defaultSeed } from '../random';
import { sharedAuthority } from '../tls';
import { assertKnownCheckIds, backendJUnitCases, printBackendReport } from './check-backend-common';
import type { CheckArgs } from './check-args';
import { writeJUnit } from './junit';
import { ensureWritable } from './output-file';
import { targetFromArgs } from './target';

/** The options of `check` that belong to the admission battery alone: refused with `--image-policy-config`. */
const ADMISSION_ONLY: readonly [keyof CheckArgs, string][] = [
  ['shard', '--shard'],
  ['concurrency', '--concurrency'],
  ['disablePlugins', '--disable-admission-plugins'],
  ['enablePlugins', '--enable-admission-plugins'],
  ['admissionConfigFile', '--admission-control-config-file'],
  ['coverageThreshold', '--coverage-threshold'],
  ['mockApi', '--mock-api'],
];

/**
 * `admission-harness check --image-policy-config FILE <target>`: the ImagePolicyWebhook backend battery.
 * FILE is the AdmissionConfiguration (or the plugin's ImagePolicyWebhookConfiguration); the kubeconfig it
 * names gives the server, re-pointed at the target. Returns the exit code: 0 passed, 1 a check failed.
 */
export async function checkImagePolicy(args: CheckArgs & { imagePolicyConfig: string }, out: (text: string) => void): Promise<number> {
  if (args.manifests.length > 0)
    throw new HarnessError(
      'USAGE',
      '--image-policy-config checks an ImagePolicyWebhook backend; --manifests checks webhooks and policies: give one',
      'run check once per kind: check --image-policy-config admission.yaml --module … and check --manifests webhooks.yaml --module …',
    );
  for (const [field, option] of ADMISSION_ONLY) {
    if (args[field] !== undefined) throw new HarnessError('USAGE', `${option} applies to the admission battery (--manifests), not to --image-policy-config`);
  }
  assertKnownCheckIds(args, IMAGE_POLICY_CHECK_IDS);
  if (args.junit) ensureWritable('--junit', args.junit);
  if (args.html) ensureWritable('--html', args.html);
  const target = await targetFromArgs(args, true);
  const seed = args.seed ?? defaultSeed();
  const backend = await connectImagePolicyBackend(
    { admissionConfig: args.imagePolicyConfig, target: target as NonNullable<typeof target> },
    { authority: await sharedAuthority(), timeScale: args.timeScale ?? 1 },
  );
  try {
    const progress = process.stderr.isTTY && !args.json;
    const report = await runImagePolicyBattery(backend, {
      seed,
      ...(args.only ? { only: args.only } : {}),
      ...(args.skip ? { skip: args.skip } : {}),
      ...(progress ? { onProgress: (done: number, total: number, title: string) => process.stderr.write(`\r\x1b[K[${done + 1}/${total}] ${title}`) } : {}),
    });
    if (progress) process.stderr.write('\r\x1b[K');
    if (args.junit) writeJUnit(args.junit, backendJUnitCases(report));
    if (args.html) writeFileSync(args.html, htmlFromBackendBattery(report, { title: 'admission-harness check · ImagePolicyWebhook' }));
    const targetName = args.module ?? args.command ?? args.url ?? '';
    const scale = args.timeScale !== undefined && args.timeScale !== 1 ? ` · time scale ${args.timeScale}` : '';
    out(printBackendReport(report, args.json, `admission-harness check · ImagePolicyWebhook · ${targetName} · seed ${seed}${scale}`));
    return report.failed > 0 ? 1 : 0;
  } finally {
    await backend.close();
  }
}
