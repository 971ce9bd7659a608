import { HarnessError } from '../errors';
import { sharedAuthority, type CertificateAuthority, type KeyPair } from '../tls';
import { recorderConfiguration, type RecorderConfiguration, type RecorderConfigurationOptions } from './configuration';
import { FixtureWriter, type RecordedEntry } from './fixture-writer';
import { LONGEST_TIMER_MS, Recording, type RecordingSummary } from './recording';
import { redactionRules } from './redact';
import { Upstream, type UpstreamOptions } from './upstream';

export type { RecordingSummary, StopReason } from './recording';

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

function positive(name: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new HarnessError('USAGE', `${name} must be a positive ${integer ? 'whole number' : 'number'}, got ${value}`);
  }
}

/** The numbers a recorder is given, checked before anything is opened. */
function checkLimits(options: RecorderOptions): void {
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
}

function openWriter(out: string): FixtureWriter {
  try {
    return new FixtureWriter(out);
  } catch (error) {
    throw new HarnessError('USAGE', `the output directory ${out}: ${(error as Error).message}`, undefined, { cause: error });
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

/** The configuration pointing at the listening recording; one that cannot be made stops it. */
async function configurationOf(recording: Recording, options: RecorderOptions, caBundle: string): Promise<RecorderConfiguration> {
  const { path: configurationPath, ...configurationOptions } = options.configuration ?? {};
  try {
    return recorderConfiguration({ ...configurationOptions, url: `${recording.url}${configurationPath ?? '/'}`, caBundle });
  } catch (error) {
    await recording.stop('closed', false);
    throw error;
  }
}

/**
 * Starts a recorder: an HTTPS server on loopback that answers every AdmissionReview `allowed: true`
 * (uid echoed, in the request's version, no patch) — or, with `upstream`, passes it to the real
 * webhook and its answer back unchanged — and writes each review it receives as a RecordedReview
 * fixture. It never refuses or changes a request it can answer: what it is there to see is
 * kube-apiserver's traffic as it is.
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  checkLimits(options);
  const rules = redactionRules(options.redact ?? true, options.redactPaths);
  const writer = openWriter(options.out);
  const { serving, ca } = await servingCertificate(options);
  const upstream = options.upstream ? new Upstream(options.upstream) : undefined;
  const recording = new Recording({
    serving,
    writer,
    rules,
    upstream,
    maxReviews: options.maxReviews,
    now: options.now ?? (() => new Date()),
    callbacks: options,
  });
  await recording.listen(options.port ?? 0);
  if (options.durationMs !== undefined) recording.stopAfter(options.durationMs);
  const caBundle = Buffer.from(ca).toString('base64');
  const configuration = await configurationOf(recording, options, caBundle);
  return {
    url: recording.url,
    caBundle,
    ca,
    configuration,
    get files() {
      return recording.summary.files;
    },
    done: recording.done,
    close: () => recording.stop('closed', false),
  };
}
