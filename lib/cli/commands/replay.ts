import { defineCommand } from '../command';
import { parseCoverageThreshold } from '../coverage-threshold';
import { seedOf, TARGET_OPTIONS, TARGET_USAGE, targetArgs } from '../options';
import { replayCommand } from '../replay';

/** `replay`: recorded reviews sent again, the answers compared (lib/cli/replay.ts). */
export const replayCli = defineCommand({
  name: 'replay',
  help: `replay   send recorded reviews (RecordedReview fixtures) again and compare the answers
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
  options: {
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
  positionals: true,
  run(values, positionals, out) {
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
  },
});
