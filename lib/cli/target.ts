import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors';
import type { Target } from '../target/targets';
import { loadAppModule } from './load-module';

export interface TargetArgs {
  module?: string;
  url?: string;
  ca?: string;
  command?: string;
}

/**
 * The webhook a command line names: `--module FILE` (served in-process), `--command "…"` (started
 * with fresh certificates) or `--url URL [--ca FILE]` (already running).
 */
export async function targetFromArgs(args: TargetArgs, required: boolean): Promise<Target | undefined> {
  const given = [args.module, args.url, args.command].filter(Boolean).length;
  if (given > 1) throw new HarnessError('USAGE', 'give one target: --module FILE, --command CMD or --url URL');
  if (args.module) return loadAppModule(args.module);
  if (args.command) return { command: args.command };
  if (args.url) {
    let ca: string | undefined;
    if (args.ca) {
      try {
        ca = readFileSync(args.ca, 'utf8');
      } catch (error) {
        throw new HarnessError('USAGE', `--ca ${args.ca}: ${(error as Error).message}`);
      }
    }
    return { url: args.url, ...(ca ? { ca } : {}) };
  }
  if (required) throw new HarnessError('USAGE', 'a target is needed: --module FILE, --command CMD or --url URL');
  return undefined;
}
