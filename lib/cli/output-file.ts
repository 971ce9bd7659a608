import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../errors';

/**
 * Refuses, before anything runs, an output file that cannot be written: a missing or read-only folder,
 * or a directory in its place. A run of minutes must not end in a stack trace over its report.
 */
export function ensureWritable(option: string, file: string): void {
  const folder = path.dirname(path.resolve(file));
  const fail = (why: string, hint: string): never => {
    throw new HarnessError('USAGE', `${option} ${file}: cannot write the report there: ${why}`, hint);
  };
  let stats: ReturnType<typeof statSync> | undefined;
  try {
    stats = statSync(folder);
  } catch {
    fail(`the folder ${folder} does not exist`, `create it first (mkdir -p ${folder}), or name a file in an existing folder`);
  }
  if (!stats?.isDirectory()) fail(`${folder} is not a folder`, 'name a file in an existing folder');
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    fail(`the folder ${folder} is not writable`, 'name a file in a folder you may write to');
  }
  try {
    if (statSync(file).isDirectory()) fail('it is a directory', `name a file, e.g. ${path.join(file, 'report.xml')}`);
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    // No such file yet: it will be created.
  }
}
