import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';

/** A command's options, as node:util parseArgs takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

type OptionValue<O extends CommandOptions[string]> = O extends { type: 'boolean' } ? boolean : string;

/** What parseArgs gives for `options`: each option's value (a list for `multiple`), absent when not given. */
export type OptionValues<T extends CommandOptions> = {
  [Name in keyof T]?: T[Name] extends { multiple: true } ? OptionValue<T[Name]>[] : OptionValue<T[Name]>;
};

/** Any command's option values, as the command line hands them over before the command reads them by its own options. */
export type ParsedValues = { [name: string]: string | boolean | (string | boolean)[] | undefined };

/** Where a command writes its output, one text at a time. */
export type Out = (text: string) => void;

/**
 * One `admission-harness` command: its name, its help, the options it takes, and what it does with them.
 * The command line finds it by name in the registry (lib/cli/commands/index.ts), parses its options
 * (with `--help` added), and maps what it throws to an exit code.
 */
export interface CliCommand {
  readonly name: string;
  /** `name    what it does`, then its options and exit codes, each line after the first indented. */
  readonly help: string;
  readonly options: CommandOptions;
  /** Whether it takes arguments besides options (files, a resource and an operation). */
  readonly positionals: boolean;
  /** Runs it; resolves the exit code (0 pass, 1 a check failed); a usage or setup error is a thrown HarnessError. */
  run(values: ParsedValues, positionals: string[], out: Out): number | Promise<number>;
}

/** A command, with `run` typed by its own options. */
export function defineCommand<const T extends CommandOptions>(command: {
  name: string;
  help: string;
  options: T;
  positionals?: boolean;
  run(values: OptionValues<T>, positionals: string[], out: Out): number | Promise<number>;
}): CliCommand {
  return { ...command, positionals: command.positionals ?? false } as CliCommand;
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * node:util parseArgs on a command's options (and `--help`), with its errors said for this command: the
 * unknown option, the nearest known one, and where the command's help is.
 */
export function parseCommandLine(command: CliCommand, args: string[]): { values: ParsedValues; positionals: string[] } {
  const { name, options } = command;
  try {
    return parseArgs({ args, options: { ...options, ...HELP }, allowPositionals: command.positionals, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const help = `run \`admission-harness ${name} --help\``;
    const unknown = /^Unknown option '(-{1,2}[^']+)'/.exec((error as Error).message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown) {
      const known = Object.keys(options).map((option) => `--${option}`);
      throw new HarnessError('USAGE', `${name}: unknown option ${unknown}${didYouMean(unknown, known)}`, help);
    }
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const positional = /^Unexpected argument '([^']*)'/.exec((error as Error).message)?.[1] ?? '';
      throw new HarnessError(
        'USAGE',
        `${name}: unexpected argument ${JSON.stringify(positional)}`,
        `${help}; options take their value after them, e.g. --manifests a.yaml --manifests b.yaml`,
      );
    }
    if (code.startsWith('ERR_PARSE_ARGS')) throw new HarnessError('USAGE', `${name}: ${(error as Error).message}`, help);
    throw error;
  }
}
