// Every `admission-harness` command, in the order `admission-harness --help` lists them.
// A new command is one module in this folder and one line here.
import type { CliCommand } from '../command';
import { checkCli } from './check';
import { explainCli } from './explain';
import { lintCli } from './lint';
import { mergeCoverageCli } from './merge-coverage';
import { recordCli } from './record';
import { replayCli } from './replay';
import { reviewCli } from './review';
import { testCli } from './test';

export const COMMANDS: readonly CliCommand[] = [checkCli, explainCli, lintCli, reviewCli, recordCli, replayCli, mergeCoverageCli, testCli];
