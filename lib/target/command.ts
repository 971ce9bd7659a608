import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../errors';
import type { KeyPair } from '../tls';
import { freePort } from '../net/loopback-server';

/** A webhook the harness starts as a process, in any language. */
export interface CommandTarget {
  /**
   * A shell command. `{port}`, `{cert}`, `{key}` and `{ca}` are replaced by the port to listen on and
   * the paths of the PEM files; the same arrive as PORT, TLS_CERT_FILE, TLS_KEY_FILE and TLS_CA_FILE.
   */
  command: string;
  cwd?: string;
  env?: Record<string, string>;
  /** How long the process may take to answer over TLS; 30 s by default. */
  readyTimeoutMs?: number;
}

export interface RunningCommand {
  address: { host: string; port: number };
  close(): Promise<void>;
}

/**
 * One readiness probe: a verified TLS handshake, then a POST. Any HTTP answer counts, and so does the
 * server dropping the connection after the handshake: a webhook may choke on the probe's empty body.
 */
function probe(port: number, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    let handshake = false;
    const req = https.request({ host: '127.0.0.1', port, method: 'POST', path: '/', servername: 'localhost', ca, agent: false, headers: { 'Content-Type': 'application/json' } }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('socket', (socket) => socket.once('secureConnect', () => (handshake = true)));
    req.setTimeout(1000, () => req.destroy());
    req.on('error', () => resolve(handshake));
    req.end('{}');
  });
}

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
 * it answers over verified TLS. `close()` stops its whole process group and removes the files.
 */
export async function startCommand(target: CommandTarget, serving: KeyPair, ca: string): Promise<RunningCommand> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'admission-harness-'));
  const files = { cert: path.join(dir, 'tls.crt'), key: path.join(dir, 'tls.key'), ca: path.join(dir, 'ca.crt') };
  writeFileSync(files.cert, serving.cert);
  writeFileSync(files.key, serving.key, { mode: 0o600 });
  writeFileSync(files.ca, ca);
  const port = await freePort();
  const command = target.command.replace(/\{(port|cert|key|ca)\}/g, (_, name: 'port' | 'cert' | 'key' | 'ca') => (name === 'port' ? String(port) : files[name]));
  const output: string[] = [];
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
  child.stderr?.on('data', keep);
  const cleanup = async () => {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (target.readyTimeoutMs ?? 30_000);
  let interval = 10;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await cleanup();
      throw new HarnessError('TARGET_UNAVAILABLE', `the webhook command exited (${child.exitCode ?? child.signalCode}) before it answered on port ${port}: ${command}\n${output.join('').trim()}`, 'the command must serve HTTPS on $PORT with $TLS_CERT_FILE and $TLS_KEY_FILE');
    }
    if (await probe(port, ca)) break;
    if (Date.now() > deadline) {
      await cleanup();
      throw new HarnessError('TARGET_UNAVAILABLE', `the webhook command did not answer over TLS on port ${port} within ${target.readyTimeoutMs ?? 30_000} ms: ${command}\n${output.join('').trim()}`, 'serve HTTPS on $PORT (or {port}) with the certificate in $TLS_CERT_FILE, or raise readyTimeoutMs');
    }
    // Polling with a growing interval: the process gives no other sign that it is ready.
    await new Promise((resolve) => setTimeout(resolve, interval));
    interval = Math.min(interval * 2, 200);
  }
  return { address: { host: '127.0.0.1', port }, close: cleanup };
}
