import { parseArgs } from 'node:util';
import { HarnessError } from '../errors';
import { check } from './check';
import { explainCommand } from './explain';
import { lintCommand } from './lint';
import { reviewCommand } from './review';
import { testCommand } from './test';
import type { TargetArgs } from './target';

const USAGE = `usage: admission-harness <command> [options]

  check    run the conformance battery against a webhook, as kube-apiserver would call it
           --manifests FILE... (--module FILE | --command CMD | --url URL [--ca FILE])
           [--seed N] [--json] [--junit FILE] [--only CHECK_ID]... [--fail-fast] [--shard i/n]
           exit 0: all checks passed · 1: a check failed · 2: usage or setup error
  explain  which webhooks a request reaches, in call order, and why
           --manifests FILE... --review FILE [--namespaces FILE] [--json]
  lint     good-practice findings for webhook configurations (exit 1 on an error finding)
           --manifests FILE... [--json]
  review   print one AdmissionReview as kube-apiserver would send it
           <resource>[/<subresource>] <operation> [--namespace NS] [--name NAME] [--dry-run]
           [--version v1|v1beta1] [--seed N] [--uid UID] [--user NAME --group G...]
           [--object FILE] [--old-object FILE] [--crd FILE]
  test     run declarative suite files (exit 1 when a case fails)
           SUITE... [--module FILE | --command CMD | --url URL [--ca FILE]] [--json] [--junit FILE]`;

const out = (text: string): void => void process.stdout.write(`${text}\n`);

/** The options that name the webhook (`check` and `test`). */
const TARGET_OPTIONS = { module: { type: 'string' }, command: { type: 'string' }, url: { type: 'string' }, ca: { type: 'string' } } as const;

function targetArgs(values: { module?: string | undefined; command?: string | undefined; url?: string | undefined; ca?: string | undefined }): TargetArgs {
  return {
    ...(values.module ? { module: values.module } : {}),
    ...(values.command ? { command: values.command } : {}),
    ...(values.url ? { url: values.url } : {}),
    ...(values.ca ? { ca: values.ca } : {}),
  };
}

function seedOf(text: string): number {
  const seed = Number(text);
  if (!Number.isInteger(seed)) throw new HarnessError('USAGE', `--seed takes an integer, got ${text}`);
  return seed;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  switch (command) {
    case 'check': {
      const { values } = parseArgs({
        args: rest,
        options: {
          manifests: { type: 'string', multiple: true },
          ...TARGET_OPTIONS,
          seed: { type: 'string' },
          json: { type: 'boolean', default: false },
          junit: { type: 'string' },
          only: { type: 'string', multiple: true },
          'fail-fast': { type: 'boolean', default: false },
          shard: { type: 'string' },
        },
      });
      const seed = values.seed === undefined ? undefined : seedOf(values.seed);
      return check(
        {
          manifests: values.manifests ?? [],
          ...targetArgs(values),
          ...(seed !== undefined ? { seed } : {}),
          json: values.json === true,
          ...(values.junit ? { junit: values.junit } : {}),
          ...(values.only ? { only: values.only } : {}),
          failFast: values['fail-fast'] === true,
          ...(values.shard ? { shard: values.shard } : {}),
        },
        out,
      );
    }
    case 'explain': {
      const { values } = parseArgs({
        args: rest,
        options: {
          manifests: { type: 'string', multiple: true },
          review: { type: 'string' },
          namespaces: { type: 'string' },
          json: { type: 'boolean', default: false },
        },
      });
      return explainCommand(
        {
          manifests: values.manifests ?? [],
          review: values.review ?? '',
          ...(values.namespaces ? { namespaces: values.namespaces } : {}),
          json: values.json === true,
        },
        out,
      );
    }
    case 'lint': {
      const { values } = parseArgs({ args: rest, options: { manifests: { type: 'string', multiple: true }, json: { type: 'boolean', default: false } } });
      return lintCommand({ manifests: values.manifests ?? [], json: values.json === true }, out);
    }
    case 'review': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
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
        },
      });
      const [target, operation] = positionals;
      if (!target || !operation || positionals.length > 2) throw new HarnessError('USAGE', 'review takes <resource>[/<subresource>] <operation>', 'e.g. admission-harness review pods/exec CONNECT');
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
          ...(values.user ? { user: values.user } : {}),
          groups: values.group ?? [],
          ...(values.object ? { object: values.object } : {}),
          ...(values['old-object'] ? { oldObject: values['old-object'] } : {}),
          ...(values.crd ? { crd: values.crd } : {}),
        },
        out,
      );
    }
    case 'test': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { ...TARGET_OPTIONS, json: { type: 'boolean', default: false }, junit: { type: 'string' } },
      });
      return testCommand(
        {
          files: positionals,
          ...targetArgs(values),
          json: values.json === true,
          ...(values.junit ? { junit: values.junit } : {}),
        },
        out,
      );
    }
    default:
      throw new HarnessError('USAGE', `unknown command ${JSON.stringify(command)}`, 'run `admission-harness --help`');
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Usage and setup errors are the user's to fix: their message says how. Anything else is a bug.
    const expected = error instanceof HarnessError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`admission-harness: ${expected ? (error as Error).message : (error as Error).stack}\n`);
    process.exitCode = 2;
  },
);
