// The `admission-harness` executable as a test runs it: runCli with what it prints captured, no process.exit.
import { runCli } from '../../lib/cli/run';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** One command line, as a user types it after `admission-harness`; its exit code and each stream's text. */
export async function cli(...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    argv,
    (t) => (stdout += `${t}\n`),
    (t) => (stderr += `${t}\n`),
  );
  return { code, stdout, stderr };
}
