import { HarnessError } from '../../errors';
import { didYouMean } from '../../nearest-name';
import { defineCommand } from '../command';
import { parseCoverageThreshold } from '../coverage-threshold';
import { mergeCoverageCommand } from '../merge-coverage';

/** `merge-coverage`: one admission coverage of a sharded run's parts (lib/cli/merge-coverage.ts). */
export const mergeCoverageCli = defineCommand({
  name: 'merge-coverage',
  help: `merge-coverage  one admission coverage of a run's parts (Jest's --shard runs, each writing
           coverage/admission.shard-i-of-n.json through admission-harness/reporter)
           FILE|DIR... [--threshold PERCENT [--of each|total]] [--json FILE] [--html FILE]
           exit 0: merged (and the threshold met) · 1: coverage below the threshold · 2: usage error`,
  options: { threshold: { type: 'string' }, of: { type: 'string' }, json: { type: 'string' }, html: { type: 'string' } },
  positionals: true,
  run(values, positionals, out) {
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
  },
});
