import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HarnessError } from '../errors';
import { sharedAuthority, type CertificateAuthority, type KeyPair } from '../tls';
import { recorderConfiguration, type RecorderConfiguration, type RecorderConfigurationOptions } from './configuration';
import { Connections } from './connections';
import { FixtureWriter, type RecordedEntry } from './fixture-writer';
import { redact, redactionRules } from './redact';
import { allowedAnswer, parseReview, type ReceivedReview } from './review-body';
import { Upstream, UpstreamError, responseOf, type UpstreamOptions, type UpstreamReply } from './upstream';

export interface RecorderOptions {
  /** The directory fixtures are written to (created if missing); files already there are kept, numbering goes on after them. */
  out: string;
  /** A serving certificate and key to present, and the PEM CA it chains to (its `caBundle`; the certificate itself when omitted). */
  tls?: KeyPair & { ca?: string };
  /** Otherwise, names and IPs for a certificate issued by `authority`, besides localhost, 127.0.0.1 and ::1. */
  hosts?: string[];
  /** The CA issuing that certificate; the process-wide harness CA by default. */
  authority?: CertificateAuthority;
  /** The loopback port to listen on; one the OS picks by default. */
  port?: number;
  /** Stand in front of this webhook: forward each request to it and record its answer beside the request. */
  upstream?: UpstreamOptions;
  /** Record this many reviews, then stop (answering those already received first) and resolve `done`. */
  maxReviews?: number;
  /** Stop after this long (likewise). */
  durationMs?: number;
  /**
   * The built-in redactions, on by default: Secret `data`/`stringData` values (keys kept) and their
   * last-applied-configuration annotation, credential-like `userInfo.extra` values, Secret values in
   * an upstream's patch. `false` records what was sent, as it was sent.
   */
  redact?: boolean;
  /** More members to replace with "REDACTED": JSON pointers into the fixture document (`/request/object/spec/token`), applied whatever `redact` says. */
  redactPaths?: string[];
  /** For the `configuration` returned: its names, rules, selectors and timeout (url and caBundle are the recorder's). */
  configuration?: Omit<RecorderConfigurationOptions, 'url' | 'service' | 'caBundle'> & { path?: string };
  /** Called after each fixture is written (the recorder prints nothing itself). */
  onRecord?: (file: string, entry: RecordedEntry) => void;
  /** Called for each request answered 400 (or, with an upstream, forwarded but not recorded) because it was no AdmissionReview. */
  onReject?: (reason: string, path: string) => void;
  /** Called when a fixture could not be written or the upstream gave no answer; the request was answered all the same. */
  onError?: (error: Error) => void;
  /** The clock for `receivedAt`. */
  now?: () => Date;
}

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

export interface Recorder {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** Base64 of the PEM CA its certificate chains to, as a configuration's `caBundle`. */
  readonly caBundle: string;
  /** That CA as PEM, as a harness URL target's `ca` takes it. */
  readonly ca: string;
  /** The RecorderConfiguration pointing at it (see recorderConfiguration). */
  readonly configuration: RecorderConfiguration;
  /** The fixture files written so far. */
  readonly files: readonly string[];
  /** Resolves when the recorder has stopped, for whatever reason, and every connection is closed; never rejects. */
  readonly done: Promise<RecordingSummary>;
  /** Stops at once: aborts what is in flight, closes every connection and clears its timer. */
  close(): Promise<RecordingSummary>;
}

// setTimeout's longest delay (about 24.8 days); a longer one would fire at once.
const LONGEST_TIMER_MS = 2 ** 31 - 1;

function positive(name: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new HarnessError('USAGE', `${name} must be a positive ${integer ? 'whole number' : 'number'}, got ${value}`);
  }
}

async function servingCertificate(options: RecorderOptions): Promise<{ serving: KeyPair; ca: string }> {
  if (options.tls) {
    if (options.hosts) throw new HarnessError('USAGE', 'give either a certificate and key (tls) or hosts to issue one for, not both');
    return { serving: { key: options.tls.key, cert: options.tls.cert }, ca: options.tls.ca ?? options.tls.cert };
  }
  const authority = options.authority ?? (await sharedAuthority());
  return { serving: await authority.issueServing({ hosts: options.hosts ?? [] }), ca: authority.cert };
}

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
 * Starts a recorder: an HTTPS server on loopback that answers every AdmissionReview `allowed: true`
 * (uid echoed, in the request's version, no patch) — or, with `upstream`, passes it to the real
 * webhook and its answer back unchanged — and writes each review it receives as a RecordedReview
 * fixture. It never refuses or changes a request it can answer: what it is there to see is
 * kube-apiserver's traffic as it is.
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  positive('maxReviews', options.maxReviews, true);
  positive('durationMs', options.durationMs, false);
  if (options.durationMs !== undefined && options.durationMs > LONGEST_TIMER_MS) {
    throw new HarnessError(
      'USAGE',
      `durationMs may be at most ${LONGEST_TIMER_MS} (about 24 days), got ${options.durationMs}`,
      'leave the duration out to record until closed',
    );
  }
  if (options.port !== undefined && (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)) {
    throw new HarnessError('USAGE', `port must be a whole number from 0 to 65535, got ${options.port}`);
  }
  const rules = redactionRules(options.redact ?? true, options.redactPaths);
  let writer: FixtureWriter;
  try {
    writer = new FixtureWriter(options.out);
  } catch (error) {
    throw new HarnessError('USAGE', `the output directory ${options.out}: ${(error as Error).message}`, undefined, { cause: error });
  }
  const { serving, ca } = await servingCertificate(options);
  const upstream = options.upstream ? new Upstream(options.upstream) : undefined;
  const now = options.now ?? (() => new Date());

  const summary: RecordingSummary = { reason: 'closed', files: [], rejected: 0, unrecorded: 0, errors: [] };
  let reserved = 0;
  let stopping = false;
  // Set by close(): what was cut off is neither recorded nor counted as an error.
  let abandoned = false;
  // The callbacks are the caller's: one that throws is noted, and never costs a request its answer.
  const notify = (call: () => void): void => {
    try {
      call();
    } catch (error) {
      summary.errors.push(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const fail = (error: Error): void => {
    if (abandoned) return;
    summary.errors.push(error);
    notify(() => options.onError?.(error));
  };

  /** Takes one of the `maxReviews` slots; the last one taken starts the graceful stop. */
  const reserve = (): boolean => {
    if (stopping) {
      summary.unrecorded++;
      return false;
    }
    reserved++;
    if (options.maxReviews !== undefined && reserved >= options.maxReviews) void stop('max', true);
    return true;
  };

  const record = (received: ReceivedReview, path: string, receivedAt: string, reply?: UpstreamReply | UpstreamError): void => {
    if (abandoned) {
      summary.unrecorded++;
      return;
    }
    const document: { request: RecordedEntry['request']; response?: RecordedEntry['response'] } = { request: received.request };
    const limits: string[] = [];
    if (reply instanceof UpstreamError)
      limits.push(`the upstream gave no answer (${reply.message}): the recorder answered ${reply.kind === 'timeout' ? 504 : 502}, no response recorded`);
    else if (reply) {
      const found = responseOf(reply);
      if ('response' in found) document.response = found.response;
      else limits.push(found.missing);
    }
    limits.push(...redact(document, rules));
    const entry: RecordedEntry = {
      source: { from: 'record', receivedAt, path, reviewVersion: received.version, ...(upstream ? { upstream: upstream.url.href } : {}) },
      request: document.request,
      ...(document.response ? { response: document.response } : {}),
      limits,
    };
    let file: string;
    try {
      file = writer.write(entry);
    } catch (error) {
      fail(
        new Error(`could not write the fixture of ${received.request.operation} ${received.request.resource.resource}: ${(error as Error).message}`, {
          cause: error,
        }),
      );
      return;
    }
    summary.files.push(file);
    notify(() => options.onRecord?.(file, entry));
  };

  const send = (res: ServerResponse, status: number, headers: [string, string | string[]][], body: Buffer | string, statusMessage?: string): void => {
    if (res.destroyed) return;
    // While stopping, each answer ends its connection, so a kept-alive client learns it at once.
    if (stopping) headers = [...headers.filter(([name]) => name.toLowerCase() !== 'connection'), ['Connection', 'close']];
    // Headers given to writeHead are sent at once: without a length there, Node would chunk the body.
    headers = [...headers, ['Content-Length', String(Buffer.byteLength(body))]];
    res.writeHead(status, statusMessage, headers.flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]])).flat());
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const receivedAt = now().toISOString();
    const path = req.url ?? '/';
    const body = await readBody(req);
    if (body === undefined) return;
    const parsed = parseReview(body);
    if (upstream) {
      // A pass-through proxy passes everything, AdmissionReview or not; only reviews are recorded.
      if (!parsed.ok) {
        summary.rejected++;
        const reason = parsed.reason;
        notify(() => options.onReject?.(reason, path));
      }
      const slot = parsed.ok && reserve();
      let reply: UpstreamReply | UpstreamError;
      try {
        reply = await upstream.forward(req, body);
      } catch (error) {
        reply = error instanceof UpstreamError ? error : new UpstreamError((error as Error).message, 'failed', { cause: error });
        fail(new Error(`upstream ${upstream.url.href}: ${reply.message}`, { cause: reply }));
      }
      if (slot && parsed.ok) record(parsed.review, path, receivedAt, reply);
      if (reply instanceof UpstreamError) {
        const status = reply.kind === 'timeout' ? 504 : 502;
        send(
          res,
          status,
          [['Content-Type', 'text/plain; charset=utf-8']],
          `admission-harness record: the upstream webhook ${upstream.url.href} gave no answer: ${reply.message}\n`,
        );
      } else {
        send(res, reply.status, reply.headers, reply.body, reply.statusMessage);
      }
      return;
    }
    if (req.method !== 'POST') {
      summary.rejected++;
      notify(() => options.onReject?.(`method ${req.method ?? ''}`, path));
      send(
        res,
        405,
        [
          ['Allow', 'POST'],
          ['Content-Type', 'text/plain; charset=utf-8'],
        ],
        'admission-harness record: POST an AdmissionReview\n',
      );
      return;
    }
    if (!parsed.ok) {
      summary.rejected++;
      const reason = parsed.reason;
      notify(() => options.onReject?.(reason, path));
      send(res, 400, [['Content-Type', 'text/plain; charset=utf-8']], `admission-harness record: not an AdmissionReview: ${parsed.reason}\n`);
      return;
    }
    if (reserve()) record(parsed.review, path, receivedAt);
    send(res, 200, [['Content-Type', 'application/json']], JSON.stringify(allowedAnswer(parsed.review)));
  };

  const server = https.createServer({ key: serving.key, cert: serving.cert }, (req, res) => {
    connections.track(res);
    handle(req, res).catch((error: unknown) => {
      // Nothing above throws by design; should something, the request still gets an answer.
      fail(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) send(res, 500, [['Content-Type', 'text/plain; charset=utf-8']], 'admission-harness record: internal error\n');
    });
  });
  const connections = new Connections(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    upstream?.destroy();
    throw new HarnessError('USAGE', `the recorder could not listen on 127.0.0.1:${options.port ?? 0}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }

  let resolveDone: (s: RecordingSummary) => void = () => undefined;
  const done = new Promise<RecordingSummary>((resolve) => (resolveDone = resolve));
  const timer = options.durationMs !== undefined ? setTimeout(() => void stop('duration', true), options.durationMs) : undefined;

  /** Stops listening; gracefully, or (close(), or a second stop) at once. Resolves once all is closed. */
  function stop(reason: StopReason, graceful: boolean): Promise<RecordingSummary> {
    if (!stopping) {
      stopping = true;
      summary.reason = reason;
      clearTimeout(timer);
      void new Promise<void>((resolve) => server.close(() => resolve())).then(() => {
        upstream?.destroy();
        resolveDone(summary);
      });
      // Idle kept-alive connections end now; busy ones when their answer is sent (Connection: close).
      server.closeIdleConnections();
      void connections.drained().then(() => connections.destroyAll());
    }
    if (!graceful) {
      abandoned = true;
      upstream?.destroy();
      connections.destroyAll();
    }
    return done;
  }

  const { port } = server.address() as AddressInfo;
  const url = `https://127.0.0.1:${port}`;
  const { path: configurationPath, ...configurationOptions } = options.configuration ?? {};
  const caBundle = Buffer.from(ca).toString('base64');
  let configuration: RecorderConfiguration;
  try {
    configuration = recorderConfiguration({ ...configurationOptions, url: `${url}${configurationPath ?? '/'}`, caBundle });
  } catch (error) {
    await stop('closed', false);
    throw error;
  }
  return {
    url,
    caBundle,
    ca,
    configuration,
    get files() {
      return summary.files;
    },
    done,
    close: () => stop('closed', false),
  };
}
