import { version } from '../../package.json';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { type CliCommand, parseCommandLine, type Out } from './command';
import { COMMANDS } from './commands';

const USAGE = `usage: admission-harness <command> [options]      (admission-harness <command> --help for one)

${COMMANDS.map(({ help }) => `  ${help.replace(/\n/g, '\n  ')}`).join('\n')}

  --version  print the version`;

/** One command's help, as `admission-harness <command> --help` prints it. */
const helpOf = (command: CliCommand): string => `usage: admission-harness ${command.help.replace(/^(\S+)\s+/, '$1 — ')}`;

async function main(argv: string[], out: Out): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    out(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    out(version);
    return 0;
  }
  const command = COMMANDS.find((known) => known.name === name);
  if (!command) {
    throw new HarnessError(
      'USAGE',
      `unknown command ${JSON.stringify(name)}${didYouMean(
        name,
        COMMANDS.map((known) => known.name),
      )}`,
      'run `admission-harness --help`',
    );
  }
  const { values, positionals } = parseCommandLine(command, rest);
  if (values.help) {
    out(helpOf(command));
    return 0;
  }
  return command.run(values, positionals, out);
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
