import { parseArgs, type ParseArgsConfig } from 'node:util';
import { version } from '../../package.json';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { check } from './check';
import { explainCommand } from './explain';
import { assertBuiltinPluginNames, assertNoPluginBothEnabledAndDisabled, readAdmissionConfiguration } from '../plugins';
import { lintCommand } from './lint';
import { reviewCommand, reviewFromAuditCommand } from './review';
import { replayCommand } from './replay';
import { recordCommand } from './record';
import { parseCoverageThreshold } from './coverage-threshold';
import { mergeCoverageCommand } from './merge-coverage';
import { testCommand } from './test';
import type { TargetArgs } from './target';

const TARGET_USAGE = '(--module FILE | --command CMD [--ready-timeout SECONDS] | --url URL [--ca FILE])';

/** Each command's own help: what it does, its options, and its exit codes. */
const COMMANDS = {
  check: `check    run the conformance battery against a webhook, as kube-apiserver would call it
           --manifests FILE... ${TARGET_USAGE}
           [--seed N] [--time-scale F] [--concurrency N] [--json] [--junit FILE] [--verbose]
           [--only CHECK_ID]... [--skip CHECK_ID]... [--fail-fast] [--shard i/n] [--disable-admission-plugins NAME,...]
           [--enable-admission-plugins NAME,...] [--admission-control-config-file FILE]
           [--coverage-threshold PERCENT] [--html FILE]
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
  explain: `explain  a request's way through admission, in order (built-in plugins, policies, webhooks), and why
           --manifests FILE... --review FILE [--namespaces FILE] [--json] [--disable-admission-plugins NAME,...]
           [--enable-admission-plugins NAME,...] [--admission-control-config-file FILE]
           --review FILE: one AdmissionReview (or its request), YAML or JSON, as \`review\` prints it; for an
           object alone make one first: admission-harness review pods CREATE --object pod.yaml > review.json
           --namespaces FILE: the cluster's namespaces and their labels, for namespaceSelectors: Namespace
           objects (or a NamespaceList), or entries \`- name: shop\` with \`labels: {team: shop}\`, YAML or JSON
           --disable-admission-plugins: built-in plugins the cluster runs without, shown as disabled
           --enable-admission-plugins: off-by-default plugins the cluster runs too, shown in their place
           --image-policy-config FILE: ImagePolicyWebhook on (its AdmissionConfiguration), shown in its place`,
  lint: `lint     good-practice findings for webhook configurations (exit 1 on an error finding)
           --manifests FILE... [--json]`,
  review: `review   print one AdmissionReview as kube-apiserver would send it
           <resource>[/<subresource>] <operation> [--namespace NS] [--name NAME] [--dry-run]
           [--version v1|v1beta1] [--seed N] [--uid UID] [--user NAME --group G...]
           [--object FILE] [--old-object FILE] [--crd FILE] [--out DIR]
           --out DIR: write it as a RecordedAdmission fixture for replay (kubectl get -o yaml output as --object)
           --from-audit AUDIT.LOG [--out DIR] [--crd FILE]: the reviews kube-apiserver would have sent for the
           requests of an audit log (level Request or RequestResponse), as fixture files (or YAML on stdout)`,
  record: `record   record what kube-apiserver sends webhooks as fixtures, never interfering
           --out DIR [--upstream URL [--upstream-ca FILE]] [--cert FILE --key FILE | --host NAME...]
           [--max N] [--duration SECONDS] [--no-redact] [--redact POINTER]...
           answers every review allowed (or passes it to --upstream and returns its answer), prints the
           ValidatingWebhookConfiguration to apply; Secret data and credentials are redacted by default`,
  replay: `replay   send recorded reviews (RecordedReview fixtures) again and compare the answers
           FIXTURE|DIR... --manifests FILE... ${TARGET_USAGE}
           [--update] [--webhook NAME] [--seed N] [--json] [--shard i/n] [--coverage-threshold PERCENT]
           [--html FILE]
           a RecordedAdmission (what review --out writes) runs through the whole chain, each webhook's answer
           compared with its own; a RecordedReview is one call, to the webhook it names or its rules match
           --update: record the answers of fixtures without one and rewrite those that changed
           --webhook: only that webhook's answers (the webhook for RecordedReviews that name none)
           --shard i/n: only the i-th of n parts of the fixtures, by file name (the same on every machine)
           exit 0: every answer as recorded · 1: an answer differs or coverage is below the threshold ·
           2: usage or setup error`,
  'merge-coverage': `merge-coverage  one admission coverage of a run's parts (Jest's --shard runs, each writing
           coverage/admission.shard-i-of-n.json through admission-harness/reporter)
           FILE|DIR... [--threshold PERCENT [--of each|total]] [--json FILE] [--html FILE]
           exit 0: merged (and the threshold met) · 1: coverage below the threshold · 2: usage error`,
  test: `test     run declarative suite files (exit 1 when a case fails or a file is not a valid suite)
           SUITE... [--module FILE | --command CMD [--ready-timeout SECONDS] | --url URL [--ca FILE]]
           [--json] [--junit FILE] [--disable-admission-plugins NAME,...] [--enable-admission-plugins NAME,...]
           [--admission-control-config-file FILE]
           --disable-admission-plugins: built-in plugins every suite's cluster runs without, besides its own
           --enable-admission-plugins: off-by-default plugins every suite's cluster runs too, besides its own
           suite format: the README, and the JSON Schema admission-harness/suite.schema.json`,
} as const;

type Command = keyof typeof COMMANDS;

const USAGE = `usage: admission-harness <command> [options]      (admission-harness <command> --help for one)

${Object.values(COMMANDS)
  .map((text) => `  ${text.replace(/\n/g, '\n  ')}`)
  .join('\n')}

  --version  print the version`;

/** The options that name the webhook (`check` and `test`). */
const TARGET_OPTIONS = {
  module: { type: 'string' },
  command: { type: 'string' },
  'ready-timeout': { type: 'string' },
  url: { type: 'string' },
  ca: { type: 'string' },
} as const;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

function positive(option: string, text: string | undefined, integer = false): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new HarnessError('USAGE', `--${option} takes a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function targetArgs(values: { module?: string; command?: string; url?: string; ca?: string; 'ready-timeout'?: string }): TargetArgs {
  const readyTimeoutSeconds = positive('ready-timeout', values['ready-timeout']);
  return {
    ...(values.module ? { module: values.module } : {}),
    ...(values.command ? { command: values.command } : {}),
    ...(values.url ? { url: values.url } : {}),
    ...(values.ca ? { ca: values.ca } : {}),
    ...(readyTimeoutSeconds !== undefined ? { readyTimeoutSeconds } : {}),
  };
}

/**
 * `--disable-admission-plugins a,b` and `--enable-admission-plugins a,b`, as kube-apiserver's flags:
 * comma-separated, repeatable; `--admission-control-config-file`, the plugins' AdmissionConfiguration.
 */
const DISABLE_PLUGINS_OPTION = { 'disable-admission-plugins': { type: 'string', multiple: true } } as const;
const PLUGIN_OPTIONS = {
  ...DISABLE_PLUGINS_OPTION,
  'enable-admission-plugins': { type: 'string', multiple: true },
  'admission-control-config-file': { type: 'string' },
} as const;

const pluginList = (lists: string[] | undefined): string[] =>
  (lists ?? [])
    .flatMap((list) => list.split(','))
    .map((name) => name.trim())
    .filter(Boolean);

/** The plugin names of every `--disable-admission-plugins`; whether each is known is the harness's (and explain's) to say. */
function disabledPlugins(values: { 'disable-admission-plugins'?: string[] }): string[] {
  return pluginList(values['disable-admission-plugins']);
}

/** `--enable-admission-plugins` (checked: known, and not also disabled) and `--admission-control-config-file`, as check and explain take them. */
function pluginFlags(values: { 'disable-admission-plugins'?: string[]; 'enable-admission-plugins'?: string[]; 'admission-control-config-file'?: string }): {
  enablePlugins?: string[];
  admissionConfigFile?: string;
} {
  const enable = pluginList(values['enable-admission-plugins']);
  assertBuiltinPluginNames(enable, '--enable-admission-plugins');
  assertNoPluginBothEnabledAndDisabled(enable, disabledPlugins(values), { enable: '--enable-admission-plugins', disable: '--disable-admission-plugins' });
  const file = values['admission-control-config-file'];
  // Read once before anything runs: kube-apiserver does not start on a file it cannot read.
  if (file) readAdmissionConfiguration(file);
  return { ...(enable.length > 0 ? { enablePlugins: enable } : {}), ...(file ? { admissionConfigFile: file } : {}) };
}

function seedOf(text: string): number {
  const seed = Number(text);
  if (!Number.isInteger(seed)) throw new HarnessError('USAGE', `--seed takes an integer, got ${text}`);
  return seed;
}

/**
 * node:util parseArgs, with its errors said for this command: the unknown option, the nearest known one,
 * and where the command's help is.
 */
function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: Command, args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options: { ...options, ...HELP }, allowPositionals, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const help = `run \`admission-harness ${command} --help\``;
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const known = Object.keys(options).map((name) => `--${name}`);
      throw new HarnessError('USAGE', `${command}: unknown option ${unknown}${didYouMean(unknown, known)}`, help);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const positional = /^Unexpected argument '([^']*)'/.exec((error as Error).message)?.[1] ?? '';
      throw new HarnessError(
        'USAGE',
        `${command}: unexpected argument ${JSON.stringify(positional)}`,
        `${help}; options take their value after them, e.g. --manifests a.yaml --manifests b.yaml`,
      );
    }
    if (code.startsWith('ERR_PARSE_ARGS')) throw new HarnessError('USAGE', `${command}: ${(error as Error).message}`, help);
    throw error;
  }
}

async function main(argv: string[], out: (text: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v' || command === 'version') {
    out(version);
    return 0;
  }
  if (!(command in COMMANDS)) {
    throw new HarnessError(
      'USAGE',
      `unknown command ${JSON.stringify(command)}${didYouMean(command, Object.keys(COMMANDS))}`,
      'run `admission-harness --help`',
    );
  }
  const helpFor = (name: Command): number => {
    out(`usage: admission-harness ${COMMANDS[name].replace(/^(\S+)\s+/, '$1 — ')}`);
    return 0;
  };
  switch (command as Command) {
    case 'check': {
      const { values } = parse('check', rest, {
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
        'image-policy-config': { type: 'string' },
      });
      if (values.help) return helpFor('check');
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
          ...(values['image-policy-config'] ? { imagePolicyConfig: values['image-policy-config'] } : {}),
        },
        out,
      );
    }
    case 'explain': {
      const { values } = parse('explain', rest, {
        manifests: { type: 'string', multiple: true },
        review: { type: 'string' },
        namespaces: { type: 'string' },
        json: { type: 'boolean', default: false },
        ...PLUGIN_OPTIONS,
        'image-policy-config': { type: 'string' },
      });
      if (values.help) return helpFor('explain');
      const disabled = disabledPlugins(values);
      return explainCommand(
        {
          manifests: values.manifests ?? [],
          review: values.review ?? '',
          ...(values.namespaces ? { namespaces: values.namespaces } : {}),
          json: values.json === true,
          ...(disabled.length > 0 ? { disablePlugins: disabled } : {}),
          ...pluginFlags(values),
          ...(values['image-policy-config'] ? { imagePolicyConfig: values['image-policy-config'] } : {}),
        },
        out,
      );
    }
    case 'lint': {
      const { values } = parse('lint', rest, { manifests: { type: 'string', multiple: true }, json: { type: 'boolean', default: false } });
      if (values.help) return helpFor('lint');
      return lintCommand({ manifests: values.manifests ?? [], json: values.json === true }, out);
    }
    case 'review': {
      const { values, positionals } = parse(
        'review',
        rest,
        {
          namespace: { type: 'string' },
          name: { type: 'string' },
          'dry-run': { type: 'boolean', default: false },
          version: { type: 'string', default: 'v1' },
          seed: { type: 'string', default: '1' },
          uid: { type: 'string' },
          user: { type: 'string' },
          group: { type: 'string', multiple: true },
          object: { type: 'string' },
          'old-object': { type: 'string' },
          crd: { type: 'string' },
          'from-audit': { type: 'string' },
          out: { type: 'string' },
        },
        true,
      );
      if (values.help) return helpFor('review');
      if (values['from-audit']) {
        if (positionals.length > 0)
          throw new HarnessError(
            'USAGE',
            'review --from-audit takes no <resource> <operation>: the audit log names them',
            'admission-harness review --from-audit audit.log [--out DIR]',
          );
        return reviewFromAuditCommand(
          { audit: values['from-audit'], ...(values.out ? { outDir: values.out } : {}), ...(values.crd ? { crd: values.crd } : {}) },
          out,
        );
      }
      const [target, operation] = positionals;
      if (!target || !operation || positionals.length > 2)
        throw new HarnessError('USAGE', 'review takes <resource>[/<subresource>] <operation>', 'e.g. admission-harness review pods/exec CONNECT');
      const seed = seedOf(values.seed ?? '1');
      return reviewCommand(
        {
          target,
          operation,
          ...(values.namespace ? { namespace: values.namespace } : {}),
          ...(values.name ? { name: values.name } : {}),
          dryRun: values['dry-run'] === true,
          version: values.version ?? 'v1',
          seed,
          ...(values.uid ? { uid: values.uid } : {}),
          ...(values.out ? { outDir: values.out } : {}),
          ...(values.user ? { user: values.user } : {}),
          groups: values.group ?? [],
          ...(values.object ? { object: values.object } : {}),
          ...(values['old-object'] ? { oldObject: values['old-object'] } : {}),
          ...(values.crd ? { crd: values.crd } : {}),
        },
        out,
      );
    }
    case 'record': {
      const { values } = parse('record', rest, {
        out: { type: 'string' },
        upstream: { type: 'string' },
        'upstream-ca': { type: 'string' },
        cert: { type: 'string' },
        key: { type: 'string' },
        host: { type: 'string', multiple: true },
        max: { type: 'string' },
        duration: { type: 'string' },
        'no-redact': { type: 'boolean', default: false },
        redact: { type: 'string', multiple: true },
      });
      if (values.help) return helpFor('record');
      const max = positive('max', values.max, true);
      const duration = positive('duration', values.duration);
      return recordCommand(
        {
          out: values.out ?? '',
          ...(values.upstream ? { upstream: values.upstream } : {}),
          ...(values['upstream-ca'] ? { upstreamCa: values['upstream-ca'] } : {}),
          ...(values.cert ? { cert: values.cert } : {}),
          ...(values.key ? { key: values.key } : {}),
          hosts: values.host ?? [],
          ...(max !== undefined ? { max } : {}),
          ...(duration !== undefined ? { durationSeconds: duration } : {}),
          redact: values['no-redact'] !== true,
          redactPaths: values.redact ?? [],
        },
        out,
      );
    }
    case 'replay': {
      const { values, positionals } = parse(
        'replay',
        rest,
        {
          manifests: { type: 'string', multiple: true },
          ...TARGET_OPTIONS,
          update: { type: 'boolean', default: false },
          webhook: { type: 'string' },
          seed: { type: 'string' },
          json: { type: 'boolean', default: false },
          shard: { type: 'string' },
          'coverage-threshold': { type: 'string' },
          html: { type: 'string' },
        },
        true,
      );
      if (values.help) return helpFor('replay');
      const seed = values.seed === undefined ? undefined : seedOf(values.seed);
      return replayCommand(
        {
          paths: positionals,
          manifests: values.manifests ?? [],
          ...targetArgs(values),
          update: values.update === true,
          json: values.json === true,
          ...(values.webhook ? { webhook: values.webhook } : {}),
          ...(seed !== undefined ? { seed } : {}),
          ...(values.shard !== undefined ? { shard: values.shard } : {}),
          ...(values['coverage-threshold'] !== undefined ? { coverageThreshold: parseCoverageThreshold(values['coverage-threshold']) } : {}),
          ...(values.html ? { html: values.html } : {}),
        },
        out,
      );
    }
    case 'merge-coverage': {
      const { values, positionals } = parse(
        'merge-coverage',
        rest,
        { threshold: { type: 'string' }, of: { type: 'string' }, json: { type: 'string' }, html: { type: 'string' } },
        true,
      );
      if (values.help) return helpFor('merge-coverage');
      if (values.of !== undefined && values.of !== 'each' && values.of !== 'total')
        throw new HarnessError('USAGE', `--of takes each or total, got ${JSON.stringify(values.of)}${didYouMean(values.of, ['each', 'total'])}`);
      if (values.of !== undefined && values.threshold === undefined)
        throw new HarnessError('USAGE', '--of is given without --threshold, which it qualifies', 'e.g. --threshold 80 --of total');
      return mergeCoverageCommand(
        {
          paths: positionals,
          ...(values.threshold !== undefined ? { threshold: parseCoverageThreshold(values.threshold, '--threshold') } : {}),
          ...(values.of ? { of: values.of } : {}),
          ...(values.json ? { json: values.json } : {}),
          ...(values.html ? { html: values.html } : {}),
        },
        out,
      );
    }
    case 'test': {
      const { values, positionals } = parse(
        'test',
        rest,
        { ...TARGET_OPTIONS, json: { type: 'boolean', default: false }, junit: { type: 'string' }, ...PLUGIN_OPTIONS },
        true,
      );
      if (values.help) return helpFor('test');
      const disabled = disabledPlugins(values);
      assertBuiltinPluginNames(disabled, '--disable-admission-plugins');
      return testCommand(
        {
          files: positionals,
          ...targetArgs(values),
          json: values.json === true,
          ...(values.junit ? { junit: values.junit } : {}),
          ...(disabled.length > 0 ? { disablePlugins: disabled } : {}),
          ...pluginFlags(values),
        },
        out,
      );
    }
  }
}

/**
 * The `admission-harness` command line: runs `argv` (without node and the script), writing the command's
 * output through `out` and errors through `err`; resolves the exit code. Usage and setup errors are said
 * in one message with a hint (exit 2); only a bug in the harness shows a stack trace.
 */
export async function runCli(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  try {
    return await main(argv, out);
  } catch (error) {
    err(`admission-harness: ${error instanceof HarnessError ? error.message : (error as Error).stack}`);
    return 2;
  }
}
