import { createHook } from 'node:async_hooks';
import https from 'node:https';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedReview } from '../../lib/audit';
import type { AdmissionRequest } from '../../lib/kube/admission';
import type { RecordSource } from '../../lib/record';
import { yaml } from '../../lib/yaml';

/** A RecordedReview as `record` writes it: its source is the recorder's. */
export type RecordFixture = Omit<RecordedReview, 'source'> & { source: RecordSource };

/** A fresh output directory, removed by `cleanup`. */
export function outDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-record-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The fixture files in `dir`, sorted, with their documents (read as YAML 1.1, as the harness reads). */
export function fixtures(dir: string): { name: string; document: RecordFixture }[] {
  return readdirSync(dir)
    .sort()
    .map((name) => ({ name, document: yaml().parse(readFileSync(path.join(dir, name), 'utf8'), { version: '1.1' }) as RecordFixture }));
}

export function withoutUid(request: AdmissionRequest | undefined): Omit<AdmissionRequest, 'uid'> {
  const { uid: _uid, ...rest } = request as AdmissionRequest;
  return rest;
}

export interface RawReply {
  status: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTPS request with verification on (against `ca`), on a fresh connection; the reply as received. */
export function rawRequest(
  url: string,
  ca: string,
  options: { method?: string; path: string; body?: string | Buffer; headers?: Record<string, string> },
): Promise<RawReply> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        method: options.method ?? 'POST',
        hostname: target.hostname,
        port: target.port,
        path: options.path,
        ca,
        agent: false,
        headers: { 'Content-Type': 'application/json', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Async resource types a recorder could leave open: servers, sockets, timers. Not TLSWRAP: its destroy
 * hook waits for garbage collection; the TCP socket under it says whether the connection is open.
 */
const HANDLE_TYPES = new Set(['TCPSERVERWRAP', 'TCPWRAP', 'Timeout']);

/**
 * A timer that does not hold the process open: the harness's one call-deadline timer (lib/call/deadlines.ts)
 * stays armed, unref'd, for the deadline of a call that has answered; whichever test first arms it sees it.
 */
const unrefTimer = (resource: object): boolean => (resource as { hasRef?: () => boolean }).hasRef?.() === false;

/**
 * Servers, sockets and timers created from now on and not yet destroyed, by async_hooks: unlike
 * `process.getActiveResourcesInfo()`, it sees only what this test created, not Jest's own timers (its
 * reporter ticks while tests run).
 */
export function trackHandles(): { open(): Promise<string[]>; stop(): void } {
  const alive = new Map<number, { type: string; resource: object }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (!HANDLE_TYPES.has(type)) return;
      const stack = new Error().stack ?? '';
      // Jest's timers, created while the hook is on, are not the test's; nor is Node's own cache of the
      // HTTP Date header (an unref'd timer of up to a second, node:internal/http utcDate, shared by every server).
      if (!/node_modules[\\/](@jest|jest-)|\(node:internal\/http:/.test(stack)) alive.set(id, { type, resource });
    },
    destroy(id) {
      alive.delete(id);
    },
  });
  hook.enable();
  return {
    /**
     * What is still open once closing has settled. A closed handle is destroyed in a later turn of the
     * event loop (its close callback, then the destroy hooks); a socket whose peer closed it, a few
     * turns later still. Turns are counted, not time: what is still open after 50 was left open.
     */
    async open() {
      for (let turn = 0; turn < 50 && alive.size > 0; turn++) await new Promise(setImmediate);
      return [...alive.values()]
        .filter(({ resource }) => !unrefTimer(resource))
        .map(({ type }) => type)
        .sort();
    },
    stop: () => hook.disable(),
  };
}
