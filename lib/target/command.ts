import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../errors';
import type { KeyPair } from '../tls';
import { freePort } from '../net/loopback-server';
import { tlsHandshake } from '../net/tls-handshake';
import type { TargetExit } from './exit';
export { describeExit, type TargetExit } from './exit';

/** A webhook the harness starts as a process, in any language. */
export interface CommandTarget {
  /**
   * A shell command. `{port}`, `{cert}`, `{key}` and `{ca}` are replaced by the port to listen on and
   * the paths of the PEM files; the same arrive as PORT, TLS_CERT_FILE, TLS_KEY_FILE and TLS_CA_FILE.
   */
  command: string;
  cwd?: string;
  env?: Record<string, string>;
  /** How long the process may take to accept a verified TLS handshake; 30 s by default. */
  readyTimeoutMs?: number;
}

export interface RunningCommand {
  address: { host: string; port: number };
  /**
   * How the process ended, or undefined while it runs. After a call failed on the connection, a process
   * that no longer accepts a TLS handshake is given a moment to be reaped, so its exit is not missed.
   */
  exited(): Promise<TargetExit | undefined>;
  close(): Promise<void>;
}

/** How long a process that refuses connections gets to report its exit, in real ms. */
const REAP_MS = 2000;
const STDERR_LINES = 20;

function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = (signal: NodeJS.Signals) => {
      try {
        // The whole process group: `go run` and `npm start` leave the server as a grandchild.
        process.kill(-(child.pid as number), signal);
      } catch {
        // already gone
      }
    };
    const force = setTimeout(() => kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      // The shell may be gone while a grandchild that ignores SIGTERM still holds the port.
      kill('SIGKILL');
      resolve();
    });
    kill('SIGTERM');
  });
}

/**
 * Starts a webhook process with freshly issued certificates on a free loopback port and waits until
 * it accepts a verified TLS handshake. `close()` stops its whole process group and removes the files.
 */
export async function startCommand(target: CommandTarget, serving: KeyPair, ca: string): Promise<RunningCommand> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'admission-harness-'));
  const files = { cert: path.join(dir, 'tls.crt'), key: path.join(dir, 'tls.key'), ca: path.join(dir, 'ca.crt') };
  writeFileSync(files.cert, serving.cert);
  writeFileSync(files.key, serving.key, { mode: 0o600 });
  writeFileSync(files.ca, ca);
  const port = await freePort();
  const command = target.command.replace(/\{(port|cert|key|ca)\}/g, (_, name: 'port' | 'cert' | 'key' | 'ca') =>
    name === 'port' ? String(port) : files[name],
  );
  const output: string[] = [];
  let stderrText = '';
  const child = spawn('sh', ['-c', command], {
    cwd: target.cwd ?? process.cwd(),
    env: { ...process.env, ...target.env, PORT: String(port), TLS_CERT_FILE: files.cert, TLS_KEY_FILE: files.key, TLS_CA_FILE: files.ca },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.shift();
  };
  // A command that cannot start at all ends up here; the readiness loop below reports it.
  child.on('error', (error) => output.push(`${error.message}\n`));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', (chunk: Buffer) => {
    keep(chunk);
    // Only the tail is ever shown: keep a little more than it, whole lines.
    stderrText = (stderrText + chunk.toString()).slice(-16_384);
  });
  let ended: Pick<TargetExit, 'code' | 'signal'> | undefined;
  const exitSeen = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = { code, signal };
      resolve();
    });
  });
  const stderrClosed = new Promise<void>((resolve) => (child.stderr ? child.stderr.once('close', resolve) : resolve()));
  let closing = false;
  const cleanup = async () => {
    closing = true;
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };

  const readyTimeoutMs = target.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + readyTimeoutMs;
  let interval = 10;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await cleanup();
      throw new HarnessError(
        'TARGET_UNAVAILABLE',
        `the webhook command exited (${child.exitCode ?? child.signalCode}) before it answered on port ${port}: ${command}\n${output.join('').trim()}`,
        'the command must serve HTTPS on $PORT with $TLS_CERT_FILE and $TLS_KEY_FILE',
      );
    }
    // Ready means a verified TLS handshake, and nothing more: the harness sends a webhook only what
    // kube-apiserver would, and a probe request would be something else.
    const handshake = await tlsHandshake({ host: '127.0.0.1', port, servername: 'localhost', ca, timeoutMs: 1000 });
    if (handshake.ok) break;
    if (handshake.reason === 'plain-http') {
      await cleanup();
      throw new HarnessError(
        'TARGET_UNAVAILABLE',
        `the webhook command answered in plain HTTP on port ${port}: ${command}`,
        'webhooks must serve HTTPS: use the certificate in $TLS_CERT_FILE ({cert}) and the key in $TLS_KEY_FILE ({key})',
      );
    }
    if (Date.now() > deadline) {
      await cleanup();
      throw new HarnessError(
        'TARGET_UNAVAILABLE',
        `the webhook command did not accept a TLS handshake on port ${port} within ${readyTimeoutMs / 1000} s (${handshake.message}): ${command}\n${output.join('').trim()}`,
        'serve HTTPS on $PORT (or {port}) with the certificate in $TLS_CERT_FILE, or allow it longer with --ready-timeout SECONDS (readyTimeoutMs)',
      );
    }
    // Polling with a growing interval: the process gives no other sign that it is ready.
    await new Promise((resolve) => setTimeout(resolve, interval));
    interval = Math.min(interval * 2, 200);
  }
  const within = async (promise: Promise<void>, ms: number): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  };
  const exited = async (): Promise<TargetExit | undefined> => {
    if (closing) return undefined;
    if (!ended) {
      // Still running as far as Node knows: alive if it still accepts a handshake; if not, it may be dying.
      const handshake = await tlsHandshake({ host: '127.0.0.1', port, servername: 'localhost', ca, timeoutMs: REAP_MS });
      if (handshake.ok) return undefined;
      await within(exitSeen, REAP_MS);
      if (!ended) return undefined;
    }
    // Its last words may still be in the pipe (a grandchild may hold it open: do not wait long).
    await within(stderrClosed, 500);
    const stderr = stderrText
      .split('\n')
      .map((line) => line.trimEnd())
      .filter(Boolean)
      .slice(-STDERR_LINES);
    return { command, ...ended, stderr };
  };
  return { address: { host: '127.0.0.1', port }, exited, close: cleanup };
}
