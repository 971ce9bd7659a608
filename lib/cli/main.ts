// The `admission-harness` executable: the command line of lib/cli/run.ts on this process's arguments.
import { runCli } from './run';

runCli(
  process.argv.slice(2),
  (text) => void process.stdout.write(`${text}\n`),
  (text) => void process.stderr.write(`${text}\n`),
).then((code) => {
  process.exitCode = code;
});
