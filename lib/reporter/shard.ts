import path from 'node:path';
import type { ReporterOptions } from './options';

/** Jest's `--shard i/n`, as its GlobalConfig gives it. */
export interface JestShard {
  shardIndex: number;
  shardCount: number;
}

/** Where a shard's summary goes when `json` is not given: the merge reads it from there. */
export const DEFAULT_SHARD_JSON = 'coverage/admission.json';

/** `coverage/admission.json` for shard 2 of 3: `coverage/admission.shard-2-of-3.json`, so shards sharing a folder never overwrite each other. */
export function shardFile(file: string, shard: { shardIndex: number | '*'; shardCount: number }): string {
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.shard-${shard.shardIndex}-of-${shard.shardCount}${ext || '.json'}`;
}

/**
 * What a shard's run does with its coverage: it covers only its part of the test files, so it writes
 * its summary to a file of its own for the merge (`admission-harness merge-coverage`) and leaves the
 * threshold and the HTML report to the merge, where the whole run's coverage is known.
 */
export function shardOptions(options: ReporterOptions, shard: JestShard): ReporterOptions {
  return { json: shardFile(options.json ?? DEFAULT_SHARD_JSON, shard) };
}

/** The line a shard's run ends its report with: what it wrote, and how the shards come together. */
export function shardNote(options: ReporterOptions, shard: JestShard, root: string): string {
  const written = path.relative(process.cwd(), path.resolve(root, shardOptions(options, shard).json as string)) || '.';
  const pattern = shardFile(options.json ?? DEFAULT_SHARD_JSON, { shardIndex: '*', shardCount: shard.shardCount });
  const threshold = options.threshold !== undefined ? ` --threshold ${options.threshold}${options.of ? ` --of ${options.of}` : ''}` : '';
  const html = options.html ? ` --html ${options.html}` : '';
  return `Admission coverage of shard ${shard.shardIndex}/${shard.shardCount} written to ${written}; once every shard has run: admission-harness merge-coverage ${pattern}${threshold}${html}`;
}
