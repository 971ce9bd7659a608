import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors';
import { startRecorder } from '../record';
import { yaml } from '../yaml';

export interface RecordArgs {
  out: string;
  upstream?: string;
  upstreamCa?: string;
  cert?: string;
  key?: string;
  hosts: string[];
  max?: number;
  durationSeconds?: number;
  redact: boolean;
  redactPaths: string[];
}

function read(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError('USAGE', `${flag} ${file}: ${(error as Error).message}`);
  }
}

/**
 * `admission-harness record`: an HTTPS server that answers every AdmissionReview allowed with no patch
 * (or, with --upstream, passes it to the real webhook and returns its answer unchanged) and writes each
 * review as a RecordedReview fixture. Prints the ValidatingWebhookConfiguration to apply, then each file
 * as it is written; stops after --max reviews, --duration seconds, or Ctrl-C.
 */
export async function recordCommand(args: RecordArgs, out: (text: string) => void): Promise<number> {
  if (!args.out) throw new HarnessError('USAGE', 'record needs --out DIR', 'e.g. admission-harness record --out fixtures/ --max 50');
  if ((args.cert === undefined) !== (args.key === undefined)) throw new HarnessError('USAGE', '--cert and --key go together');
  const recorder = await startRecorder({
    out: args.out,
    ...(args.cert && args.key ? { tls: { cert: read('--cert', args.cert), key: read('--key', args.key) } } : {}),
    ...(args.hosts.length > 0 ? { hosts: args.hosts } : {}),
    ...(args.upstream ? { upstream: { url: args.upstream, ...(args.upstreamCa ? { ca: read('--upstream-ca', args.upstreamCa) } : {}) } } : {}),
    ...(args.max !== undefined ? { maxReviews: args.max } : {}),
    ...(args.durationSeconds !== undefined ? { durationMs: args.durationSeconds * 1000 } : {}),
    redact: args.redact,
    redactPaths: args.redactPaths,
    onRecord: (file) => out(`recorded ${file}`),
    onReject: (reason, path) => out(`not recorded (${reason}): ${path}`),
  });
  out(
    `# recording at ${recorder.url}; apply this configuration (failurePolicy Ignore: it never blocks a request):\n${yaml().stringify(recorder.configuration)}`,
  );
  const interrupt = () => void recorder.close();
  process.once('SIGINT', interrupt);
  try {
    const summary = await recorder.done;
    out(`stopped (${summary.reason}): ${summary.files.length} reviews recorded in ${args.out}`);
    return summary.errors.length > 0 ? 2 : 0;
  } finally {
    process.off('SIGINT', interrupt);
  }
}
