import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { HarnessError } from '../errors';
import type { Target } from '../target/targets';
import { resolveEndpoint } from '../call/endpoint';
import { tlsHandshake } from '../net/tls-handshake';
import { loadAppModule } from './load-module';

export interface TargetArgs {
  module?: string;
  url?: string;
  ca?: string;
  command?: string;
  /** How long a `--command` process may take to accept a TLS handshake. */
  readyTimeoutSeconds?: number;
}

/**
 * The webhook a command line names: `--module FILE` (served in-process), `--command "…"` (started
 * with fresh certificates) or `--url URL [--ca FILE]` (already running).
 */
export async function targetFromArgs(args: TargetArgs, required: boolean): Promise<Target | undefined> {
  const given = [args.module, args.url, args.command].filter(Boolean).length;
  if (given > 1) throw new HarnessError('USAGE', 'give one target: --module FILE, --command CMD or --url URL');
  if (args.module) return loadAppModule(args.module);
  if (args.readyTimeoutSeconds !== undefined && !args.command)
    throw new HarnessError(
      'USAGE',
      '--ready-timeout applies to --command only',
      'the harness waits for a process it starts; a --url server is expected to be up already',
    );
  if (args.command) return { command: args.command, ...(args.readyTimeoutSeconds !== undefined ? { readyTimeoutMs: args.readyTimeoutSeconds * 1000 } : {}) };
  if (args.url) {
    let ca: string | undefined;
    if (args.ca) {
      try {
        ca = readFileSync(args.ca, 'utf8');
      } catch (error) {
        throw new HarnessError('USAGE', `--ca ${args.ca}: ${(error as Error).message}`);
      }
    }
    await ensureListening(args.url, ca);
    return { url: args.url, ...(ca ? { ca } : {}) };
  }
  if (required) throw new HarnessError('USAGE', 'a target is needed: --module FILE, --command CMD or --url URL');
  return undefined;
}

/**
 * Before any scenario: something must accept a TLS connection at `--url`. Nothing listening, or a plain
 * HTTP server, is a setup error said once (exit 2), not a failed check per scenario. A certificate that
 * does not verify is left to the checks (tls-chain, tls-san), which say it with kube-apiserver's words.
 */
async function ensureListening(url: string, ca: string | undefined): Promise<void> {
  let endpoint: ReturnType<typeof resolveEndpoint>;
  try {
    endpoint = resolveEndpoint({ url });
  } catch (error) {
    throw new HarnessError('USAGE', `--url ${url}: ${(error as Error).message}`, "give the webhook server's base URL, e.g. https://127.0.0.1:8443");
  }
  if (!url.startsWith('https://'))
    throw new HarnessError('USAGE', `--url ${url}: webhooks are called over HTTPS`, `use https://${url.replace(/^[a-z]+:\/\//, '')}`);
  const { host, port } = endpoint.address;
  // SNI carries host names only (RFC 6066); an IP address is verified without it.
  const servername = isIP(endpoint.verifyName) ? undefined : endpoint.verifyName;
  const result = await tlsHandshake({ host, port, servername, ...(ca ? { ca } : {}), timeoutMs: 5000 });
  if (result.ok || result.reason === 'verify') return;
  if (result.reason === 'plain-http')
    throw new HarnessError(
      'TARGET_UNAVAILABLE',
      `--url ${url}: the server answered in plain HTTP; webhooks must serve HTTPS`,
      'serve TLS (kube-apiserver calls webhooks only over HTTPS), with a certificate your --ca or caBundle trusts',
    );
  if (result.reason === 'refused')
    throw new HarnessError(
      'TARGET_UNAVAILABLE',
      `--url ${url}: nothing listens at ${host}:${port} (connection refused)`,
      'start the webhook server first, or let the harness start it with --command',
    );
  throw new HarnessError(
    'TARGET_UNAVAILABLE',
    `--url ${url}: no TLS handshake with ${host}:${port}: ${result.message}`,
    'is the webhook server up, and serving HTTPS?',
  );
}
