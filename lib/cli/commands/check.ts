import { assertBuiltinPluginNames } from '../../plugins';
import { check } from '../check';
import { defineCommand } from '../command';
import { parseCoverageThreshold } from '../coverage-threshold';
import { disabledPlugins, PLUGIN_OPTIONS, pluginFlags, positive, seedOf, TARGET_OPTIONS, TARGET_USAGE, targetArgs } from '../options';

/** `check`: the conformance battery against one webhook (lib/cli/check.ts). */
export const checkCli = defineCommand({
  name: 'check',
  help: `check    run the conformance battery against a webhook, as kube-apiserver would call it
           --manifests FILE... ${TARGET_USAGE}
           [--seed N] [--time-scale F] [--concurrency N] [--json] [--junit FILE] [--verbose]
           [--only CHECK_ID]... [--skip CHECK_ID]... [--fail-fast] [--shard i/n] [--disable-admission-plugins NAME,...]
           [--enable-admission-plugins NAME,...] [--admission-control-config-file FILE]
           [--coverage-threshold PERCENT] [--html FILE] [--mock-api]
           --mock-api: serve the webhook a mock Kubernetes API (a --command gets KUBECONFIG and the in-cluster variables)
           a CRD with conversion.strategy Webhook in --manifests: its conversion webhook is checked too
           --image-policy-config FILE (with a target, without --manifests): an ImagePolicyWebhook backend instead;
           FILE: the AdmissionConfiguration or ImagePolicyWebhookConfiguration, its kubeconfig's server re-pointed
           --only / --skip CHECK_ID: run only these checks / every check but these (repeatable)
           --html FILE: the report as one self-contained HTML file too (timeline, patch, diff, coverage)
           --time-scale F: real time per configured second (0.1 turns timeoutSeconds 10 into 1 s)
           --disable-admission-plugins: built-in plugins the cluster runs without, as kube-apiserver's flag
           --enable-admission-plugins: off-by-default plugins the cluster runs too (AlwaysPullImages, PodNodeSelector…)
           --admission-control-config-file: their AdmissionConfiguration (PodNodeSelector, PodTolerationRestriction)
           --coverage-threshold: fail when a webhook's admission coverage is below PERCENT
           exit 0: all checks passed · 1: a check failed, the webhook process exited mid-run (reported
           first; the scenarios after it are not run) or coverage is below the threshold · 2: usage or setup error`,
  options: {
    manifests: { type: 'string', multiple: true },
    ...TARGET_OPTIONS,
    seed: { type: 'string' },
    'time-scale': { type: 'string' },
    concurrency: { type: 'string' },
    json: { type: 'boolean', default: false },
    junit: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    skip: { type: 'string', multiple: true },
    'fail-fast': { type: 'boolean', default: false },
    shard: { type: 'string' },
    ...PLUGIN_OPTIONS,
    'coverage-threshold': { type: 'string' },
    html: { type: 'string' },
    'mock-api': { type: 'boolean', default: false },
    'image-policy-config': { type: 'string' },
  },
  run(values, _positionals, out) {
    const disabled = disabledPlugins(values);
    assertBuiltinPluginNames(disabled, '--disable-admission-plugins');
    const seed = values.seed === undefined ? undefined : seedOf(values.seed);
    const timeScale = positive('time-scale', values['time-scale']);
    const concurrency = positive('concurrency', values.concurrency, true);
    return check(
      {
        manifests: values.manifests ?? [],
        ...targetArgs(values),
        ...(seed !== undefined ? { seed } : {}),
        ...(timeScale !== undefined ? { timeScale } : {}),
        ...(concurrency !== undefined ? { concurrency } : {}),
        json: values.json === true,
        verbose: values.verbose === true,
        ...(values.junit ? { junit: values.junit } : {}),
        ...(values.only ? { only: values.only } : {}),
        ...(values.skip ? { skip: values.skip } : {}),
        failFast: values['fail-fast'] === true,
        ...(values.shard ? { shard: values.shard } : {}),
        ...(disabled.length > 0 ? { disablePlugins: disabled } : {}),
        ...pluginFlags(values),
        ...(values['coverage-threshold'] !== undefined ? { coverageThreshold: parseCoverageThreshold(values['coverage-threshold']) } : {}),
        ...(values.html ? { html: values.html } : {}),
        ...(values['mock-api'] ? { mockApi: true } : {}),
        ...(values['image-policy-config'] ? { imagePolicyConfig: values['image-policy-config'] } : {}),
      },
      out,
    );
  },
});
