import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../errors';
import { keepIdleConnections } from '../net/loopback-server';
import type { KeyPair } from '../tls';
import { Connections } from './connections';
import type { FixtureWriter, RecordedEntry } from './fixture-writer';
import { redact, type RedactionRules } from './redact';
import { allowedAnswer, parseReview, type ReceivedReview } from './review-body';
import { type Upstream, UpstreamError, responseOf, type UpstreamReply } from './upstream';

/** Why a recording ended. */
export type StopReason = 'max' | 'duration' | 'closed';

export interface RecordingSummary {
  reason: StopReason;
  /** The fixture files written, in order. */
  files: string[];
  /** Requests that were not AdmissionReviews (answered 400, or forwarded unrecorded with an upstream). */
  rejected: number;
  /** AdmissionReviews answered after `maxReviews` was reached, while the recorder stopped: not recorded. */
  unrecorded: number;
  /** Fixtures that could not be written and upstream failures. */
  errors: Error[];
}

/** The caller's callbacks (RecorderOptions says when each is called). */
export interface RecordingCallbacks {
  onRecord?: (file: string, entry: RecordedEntry) => void;
  onReject?: (reason: string, path: string) => void;
  onError?: (error: Error) => void;
}

/** What a recording is made of, checked and prepared by startRecorder. */
export interface RecordingParts {
  serving: KeyPair;
  writer: FixtureWriter;
  rules: RedactionRules;
  upstream: Upstream | undefined;
  maxReviews: number | undefined;
  /** The clock for `receivedAt`. */
  now: () => Date;
  callbacks: RecordingCallbacks;
}

type Headers = [string, string | string[]][];

const TEXT: Headers = [['Content-Type', 'text/plain; charset=utf-8']];

// setTimeout's longest delay (about 24.8 days); a longer one would fire at once.
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // The client went away mid-body (or close() cut it off): nothing to answer or record.
    req.on('error', () => resolve(undefined));
    req.on('close', () => {
      if (!req.complete) resolve(undefined);
    });
  });
}

/**
 * One recording: the HTTPS server, what it has recorded so far, and how it stops. Every request gets an
 * answer (allowed, or the upstream's); each AdmissionReview among them is written as a fixture.
 */
export class Recording {
  readonly summary: RecordingSummary = { reason: 'closed', files: [], rejected: 0, unrecorded: 0, errors: [] };
  /** Resolves when the recording has stopped and every connection is closed; never rejects. */
  readonly done: Promise<RecordingSummary>;
  private readonly server: https.Server;
  private readonly connections: Connections;
  private resolveDone: (summary: RecordingSummary) => void = () => undefined;
  private reserved = 0;
  private stopping = false;
  // Set by close(): what was cut off is neither recorded nor counted as an error.
  private abandoned = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly parts: RecordingParts) {
    this.done = new Promise<RecordingSummary>((resolve) => (this.resolveDone = resolve));
    this.server = https.createServer({ key: parts.serving.key, cert: parts.serving.cert }, (req, res) => this.onRequest(req, res));
    keepIdleConnections(this.server);
    this.connections = new Connections(this.server);
  }

  /** Listens on loopback; a port it cannot have is a setup error. */
  async listen(port: number): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => {
        this.server.once('error', reject);
        this.server.listen(port, '127.0.0.1', () => {
          this.server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      this.parts.upstream?.destroy();
      throw new HarnessError('USAGE', `the recorder could not listen on 127.0.0.1:${port}: ${(error as Error).message}`, undefined, { cause: error });
    }
  }

  /** `https://127.0.0.1:<port>`, once listening. */
  get url(): string {
    return `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Stops gracefully after `durationMs`. */
  stopAfter(durationMs: number): void {
    this.timer = setTimeout(() => void this.stop('duration', true), durationMs);
  }

  /** Stops listening; gracefully, or (close(), or a second stop) at once. Resolves once all is closed. */
  stop(reason: StopReason, graceful: boolean): Promise<RecordingSummary> {
    if (!this.stopping) {
      this.stopping = true;
      this.summary.reason = reason;
      clearTimeout(this.timer);
      void new Promise<void>((resolve) => this.server.close(() => resolve())).then(() => {
        this.parts.upstream?.destroy();
        this.resolveDone(this.summary);
      });
      // Idle kept-alive connections end now; busy ones when their answer is sent (Connection: close).
      this.server.closeIdleConnections();
      void this.connections.drained().then(() => this.connections.destroyAll());
    }
    if (!graceful) {
      this.abandoned = true;
      this.parts.upstream?.destroy();
      this.connections.destroyAll();
    }
    return this.done;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.connections.track(res);
    this.handle(req, res).catch((error: unknown) => {
      // Nothing below throws by design; should something, the request still gets an answer.
      this.fail(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) this.send(res, 500, TEXT, 'admission-harness record: internal error\n');
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = this.parts.now().toISOString();
    const path = req.url ?? '/';
    const body = await readBody(req);
    if (body === undefined) return;
    const parsed = parseReview(body);
    if (this.parts.upstream) return this.forward(this.parts.upstream, req, res, body, parsed, path, receivedAt);
    if (req.method !== 'POST') {
      this.reject(`method ${req.method ?? ''}`, path);
      this.send(res, 405, [['Allow', 'POST'], ...TEXT], 'admission-harness record: POST an AdmissionReview\n');
      return;
    }
    if (!parsed.ok) {
      this.reject(parsed.reason, path);
      this.send(res, 400, TEXT, `admission-harness record: not an AdmissionReview: ${parsed.reason}\n`);
      return;
    }
    if (this.reserve()) this.record(parsed.review, path, receivedAt);
    this.send(res, 200, [['Content-Type', 'application/json']], JSON.stringify(allowedAnswer(parsed.review)));
  }

  /** A pass-through proxy passes everything, AdmissionReview or not, and returns the upstream's answer; only reviews are recorded. */
  private async forward(
    upstream: Upstream,
    req: IncomingMessage,
    res: ServerResponse,
    body: Buffer,
    parsed: ReturnType<typeof parseReview>,
    path: string,
    receivedAt: string,
  ): Promise<void> {
    if (!parsed.ok) this.reject(parsed.reason, path);
    const slot = parsed.ok && this.reserve();
    let reply: UpstreamReply | UpstreamError;
    try {
      reply = await upstream.forward(req, body);
    } catch (error) {
      reply = error instanceof UpstreamError ? error : new UpstreamError((error as Error).message, 'failed', { cause: error });
      this.fail(new Error(`upstream ${upstream.url.href}: ${reply.message}`, { cause: reply }));
    }
    if (slot && parsed.ok) this.record(parsed.review, path, receivedAt, reply);
    if (reply instanceof UpstreamError) {
      const status = reply.kind === 'timeout' ? 504 : 502;
      this.send(res, status, TEXT, `admission-harness record: the upstream webhook ${upstream.url.href} gave no answer: ${reply.message}\n`);
    } else {
      this.send(res, reply.status, reply.headers, reply.body, reply.statusMessage);
    }
  }

  /** Takes one of the `maxReviews` slots; the last one taken starts the graceful stop. */
  private reserve(): boolean {
    if (this.stopping) {
      this.summary.unrecorded++;
      return false;
    }
    this.reserved++;
    if (this.parts.maxReviews !== undefined && this.reserved >= this.parts.maxReviews) void this.stop('max', true);
    return true;
  }

  private record(received: ReceivedReview, path: string, receivedAt: string, reply?: UpstreamReply | UpstreamError): void {
    if (this.abandoned) {
      this.summary.unrecorded++;
      return;
    }
    const entry = this.entryOf(received, path, receivedAt, reply);
    let file: string;
    try {
      file = this.parts.writer.write(entry);
    } catch (error) {
      const what = `${received.request.operation} ${received.request.resource.resource}`;
      this.fail(new Error(`could not write the fixture of ${what}: ${(error as Error).message}`, { cause: error }));
      return;
    }
    this.summary.files.push(file);
    this.notify(() => this.parts.callbacks.onRecord?.(file, entry));
  }

  /** The fixture of one review: the request, the upstream's response if any, redacted, and what it lacks. */
  private entryOf(received: ReceivedReview, path: string, receivedAt: string, reply?: UpstreamReply | UpstreamError): RecordedEntry {
    const document: { request: RecordedEntry['request']; response?: RecordedEntry['response'] } = { request: received.request };
    const limits: string[] = [];
    if (reply instanceof UpstreamError)
      limits.push(`the upstream gave no answer (${reply.message}): the recorder answered ${reply.kind === 'timeout' ? 504 : 502}, no response recorded`);
    else if (reply) {
      const found = responseOf(reply);
      if ('response' in found) document.response = found.response;
      else limits.push(found.missing);
    }
    limits.push(...redact(document, this.parts.rules));
    const upstream = this.parts.upstream;
    return {
      source: { from: 'record', receivedAt, path, reviewVersion: received.version, ...(upstream ? { upstream: upstream.url.href } : {}) },
      request: document.request,
      ...(document.response ? { response: document.response } : {}),
      limits,
    };
  }

  private send(res: ServerResponse, status: number, headers: Headers, body: Buffer | string, statusMessage?: string): void {
    if (res.destroyed) return;
    // While stopping, each answer ends its connection, so a kept-alive client learns it at once.
    if (this.stopping) headers = [...headers.filter(([name]) => name.toLowerCase() !== 'connection'), ['Connection', 'close']];
    // Headers given to writeHead are sent at once: without a length there, Node would chunk the body.
    headers = [...headers, ['Content-Length', String(Buffer.byteLength(body))]];
    res.writeHead(status, statusMessage, headers.flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]])).flat());
    res.end(body);
  }

  private reject(reason: string, path: string): void {
    this.summary.rejected++;
    this.notify(() => this.parts.callbacks.onReject?.(reason, path));
  }

  private fail(error: Error): void {
    if (this.abandoned) return;
    this.summary.errors.push(error);
    this.notify(() => this.parts.callbacks.onError?.(error));
  }

  // The callbacks are the caller's: one that throws is noted, and never costs a request its answer.
  private notify(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.summary.errors.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
