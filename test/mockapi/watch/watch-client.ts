// Helpers for the watch tests: a raw watch client over either transport, a clock the test moves, and the
// recorded fixtures (test/mockapi/fixtures, recorded on a real kube-apiserver v1.36.2) with what may differ.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { KubeObject } from '../../../lib/kube/admission';
import type { MockApi } from '../../../lib/mockapi';
import type { WatchClock } from '../../../lib/mockapi/watch/watch-hub';

export type Transport = 'msw' | 'loopback';

export interface WatchLine {
  type: string;
  object: KubeObject & { code?: number; message?: string; reason?: string };
}

/** An open watch as a client sees it: the status and headers, the events so far, and how it ended. */
export interface OpenWatch {
  status: number;
  headers: Record<string, string>;
  /** Parsed lines, in arrival order; a non-200 answer's body is its one line. */
  events: WatchLine[];
  /** The bytes received so far, as text. */
  raw(): string;
  /** Resolves once `count` events have arrived. */
  next(count: number): Promise<WatchLine[]>;
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  hasEnded(): boolean;
  abort(): void;
}

/**
 * GET `pathAndQuery` and read it line by line as it streams, through msw in this process (no CA needed: msw
 * answers) or over real TLS to the loopback server. Resolves when the headers arrive, before any event.
 */
export function openWatch(api: MockApi, pathAndQuery: string, transport: Transport, headers: Record<string, string> = {}): Promise<OpenWatch> {
  return new Promise((resolve, reject) => {
    const events: WatchLine[] = [];
    const waiters: { count: number; resolve: (events: WatchLine[]) => void }[] = [];
    let ended = false;
    let finish!: () => void;
    const endedPromise = new Promise<void>((r) => (finish = r));
    const notify = (): void => {
      for (const waiter of [...waiters]) {
        if (events.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(events.slice());
        }
      }
    };
    const options = { headers: { Authorization: `Bearer ${api.token}`, Accept: 'application/json', ...headers }, ca: api.ca };
    void transport; // the API's intercept option decides whether msw or the server answers
    let raw = '';
    const request = https.get(`${api.url}${pathAndQuery}`, options, (response) => {
      let buffer = '';
      response.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
        buffer += chunk.toString();
        for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
          events.push(JSON.parse(buffer.slice(0, i)) as WatchLine);
          buffer = buffer.slice(i + 1);
        }
        notify();
      });
      const end = (): void => {
        if (ended) return;
        if (buffer.trim()) events.push(JSON.parse(buffer) as WatchLine);
        ended = true;
        notify();
        finish();
      };
      response.on('end', end);
      response.on('close', end);
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers as Record<string, string>,
        events,
        raw: () => raw,
        next: (count) => (events.length >= count ? Promise.resolve(events.slice()) : new Promise((r) => waiters.push({ count, resolve: r }))),
        ended: endedPromise,
        hasEnded: () => ended,
        abort: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

/** A JSON request over https trusting the API's CA (msw answers it in process when intercepting). */
export function request(
  api: MockApi,
  method: string,
  pathAndQuery: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${api.token}`, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': contentType } : {}) };
    const sent = https.request(`${api.url}${pathAndQuery}`, { method, headers, ca: api.ca }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sent.on('error', reject);
    sent.end(body !== undefined ? JSON.stringify(body) : undefined);
  });
}

/** Timers that fire only when the test moves time on. */
export class ManualClock implements WatchClock {
  #now = 0;
  #timers: { at: number; fn: () => void; id: number }[] = [];
  #ids = 0;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.#ids;
    this.#timers.push({ at: this.#now + ms, fn, id });
    return id;
  }

  clearTimeout(timer: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== timer);
  }

  /** The delays of the pending timers, from now. */
  pending(): number[] {
    return this.#timers.map((t) => t.at - this.#now).sort((a, b) => a - b);
  }

  /** Moves time on by `ms`, firing every timer due on the way, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.fn();
    }
    this.#now = until;
  }
}

const FIXTURES = path.join(__dirname, '../fixtures');

export interface RecordedWatch {
  request: { method: string; path: string; headers: Record<string, string> };
  response: { code: number; headers: Record<string, string>; events: WatchLine[]; howStreamEnded: string; body?: unknown };
}

export interface Recording {
  case: string;
  steps: {
    request: { method: string; path: string; headers: Record<string, string>; body?: any };
    response: { code: number; body: any; headers: Record<string, string> };
  }[];
  watch?: RecordedWatch;
  watch2?: RecordedWatch;
  watch3?: RecordedWatch;
  kubectl?: { requests: { method: string; url: string; accept: string; status: string }[] };
}

/** A recording of test/mockapi/fixtures by its basename (e.g. `list-then-watch`). */
export const recording = (name: string): Recording => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as Recording;

/**
 * What may differ from the recording: uids, timestamps and resourceVersions differ from run to run on a real
 * cluster too, and managedFields are not written by the mock API yet. resourceVersions are compared apart.
 */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (key === 'uid' || key === 'resourceVersion' || key === 'creationTimestamp' || key === 'deletionTimestamp' || key === 'managedFields') continue;
    out[key] = comparable(member);
  }
  return out;
}

/** The resourceVersions of events (of their objects), in order. */
export const versionsOf = (events: readonly WatchLine[]): number[] => events.map((e) => Number(e.object.metadata?.resourceVersion));

/**
 * Two sequences of resourceVersions agree when they order alike: equal where the recorded ones are equal,
 * earlier where they are earlier. The numbers themselves depend on what else the cluster had written.
 */
export function expectSameOrder(recorded: readonly number[], actual: readonly number[]): void {
  expect(actual).toHaveLength(recorded.length);
  const sign = (n: number): number => Math.sign(n);
  for (let i = 0; i < recorded.length; i++) {
    for (let j = i + 1; j < recorded.length; j++) {
      expect([i, j, sign((actual[j] as number) - (actual[i] as number))]).toEqual([i, j, sign((recorded[j] as number) - (recorded[i] as number))]);
    }
  }
}
