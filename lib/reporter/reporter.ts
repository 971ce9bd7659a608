import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../errors';
import { htmlReportModule, type HtmlReportModule } from './html';
import { parseReporterOptions, type ReporterOptions } from './options';
import { runOutcome } from './outcome';
import { shardNote, shardOptions, type JestShard } from './shard';
import { COVERAGE_DIR_ENV, readSummaryFiles } from '../admission-coverage/summary-files';

/** The part of Jest's GlobalConfig the reporter reads (declared here: Jest's types are no dependency of the package). */
export interface JestGlobalConfig {
  rootDir: string;
  /** `--shard i/n`: this run is one part of the test files. */
  shard?: JestShard;
}

/** The part of Jest's AggregatedResult the reporter reads. */
export interface JestAggregatedResult {
  wasInterrupted?: boolean;
}

/** The part of the Vitest instance (`onInit`) the reporter reads (declared here: Vitest is an optional peer). */
export interface VitestContext {
  /** `shard`: `--shard i/n`, this run being one part of the test files. */
  config: { root: string; shard?: { index: number; count: number } };
  logger: { log(...args: unknown[]): void; error(...args: unknown[]): void };
}

/** How a Vitest run ended (`onTestRunEnd`'s reason). */
export type VitestRunEndReason = 'passed' | 'interrupted' | 'failed';

/**
 * Admission coverage over a whole Jest or Vitest run: each harness of the run, in whichever worker,
 * leaves its coverage summary in a directory when it closes; at the end of the run the reporter
 * merges them, prints the table, writes the files asked for and checks the threshold.
 *
 * ```js
 * // jest.config.js, or vitest.config.ts's `test`
 * reporters: ['default', ['admission-harness/reporter', { threshold: 80, json: 'coverage/admission.json' }]],
 * ```
 *
 * One class serves both runners, which call disjoint hooks: Jest constructs it as
 * `new R(globalConfig, options, context)` and calls `onRunStart`, `onRunComplete` and `getLastError`;
 * Vitest constructs it as `new R(options)` and calls `onInit`, `onTestRunStart` and `onTestRunEnd`.
 * Both construct reporters in the main process before any worker starts, which is what lets the
 * constructor hand the directory to every worker through the environment.
 */
export class AdmissionCoverageReporter {
  readonly #options: ReporterOptions;
  readonly #html: HtmlReportModule | undefined;
  readonly #dir: string;
  readonly #previous: string | undefined;
  #shard: JestShard | undefined;
  #root: string;
  #vitest: VitestContext | undefined;
  #lastError: Error | undefined;
  // A run that ends without its end hook (Ctrl-C, a crash, `--listTests`) still leaves no directory behind.
  readonly #removeOnExit = (): void => rmSync(this.#dir, { recursive: true, force: true });

  /** Vitest: `new R(options)`. */
  constructor(options?: ReporterOptions);
  /** Jest: `new R(globalConfig, options, reporterContext)`. */
  constructor(globalConfig: JestGlobalConfig, options?: ReporterOptions, context?: unknown);
  constructor(...args: unknown[]) {
    // Jest always passes its three arguments (options are `{}` when none are given); Vitest passes one.
    const jest = args.length >= 2;
    this.#options = parseReporterOptions(jest ? args[1] : args[0]);
    this.#root = jest ? (args[0] as JestGlobalConfig).rootDir : process.cwd();
    this.#shard = jest ? (args[0] as JestGlobalConfig).shard : undefined;
    // Checked now rather than after a run of minutes.
    this.#html = this.#options.html ? htmlReportModule() : undefined;
    this.#previous = process.env[COVERAGE_DIR_ENV];
    this.#dir = mkdtempSync(path.join(os.tmpdir(), 'admission-coverage-'));
    this.#begin();
  }

  /** The directory the run's harnesses write to (the value of ADMISSION_HARNESS_COVERAGE_DIR during the run). */
  get directory(): string {
    return this.#dir;
  }

  /** A fresh start, also for each rerun of a watch mode that reuses the reporter: an empty directory the workers will inherit. */
  #begin(): void {
    mkdirSync(this.#dir, { recursive: true });
    for (const name of readdirSync(this.#dir)) rmSync(path.join(this.#dir, name), { force: true });
    process.env[COVERAGE_DIR_ENV] = this.#dir;
    // Once, however many reruns: a listener per run would add up in a long watch session.
    process.off('exit', this.#removeOnExit);
    process.on('exit', this.#removeOnExit);
  }

  /** Reports the run; returns the message that fails it, if any. Never throws: an error fails the run with its message. */
  async #finish(print: (text: string) => void, interrupted: boolean): Promise<string | undefined> {
    try {
      const shard = this.#shard;
      const outcome = await runOutcome(
        readSummaryFiles(this.#dir),
        shard ? shardOptions(this.#options, shard) : this.#options,
        this.#root,
        shard ? undefined : this.#html,
      );
      print(`\n${outcome.text}\n${shard ? `${shardNote(this.#options, shard, this.#root)}\n` : ''}`);
      // A run cut short covered less than it would have: its threshold says nothing.
      return interrupted ? undefined : outcome.failure;
    } catch (error) {
      return error instanceof HarnessError ? error.message : `admission-harness/reporter: ${(error as Error).stack ?? String(error)}`;
    } finally {
      rmSync(this.#dir, { recursive: true, force: true });
      process.off('exit', this.#removeOnExit);
      if (this.#previous === undefined) delete process.env[COVERAGE_DIR_ENV];
      else process.env[COVERAGE_DIR_ENV] = this.#previous;
    }
  }

  // ------------------------------------------------------------------------------------------ Jest

  /** Jest: the run starts (before its workers). */
  onRunStart(): void {
    this.#lastError = undefined;
    this.#begin();
  }

  /** Jest: the run ended; prints to stderr, as Jest's own reporters do. */
  async onRunComplete(_testContexts?: unknown, results?: JestAggregatedResult): Promise<void> {
    const failure = await this.#finish((text) => process.stderr.write(`${text}\n`), results?.wasInterrupted === true);
    if (failure) {
      process.stderr.write(`${failure}\n\n`);
      this.#lastError = new Error(failure);
    }
  }

  /** Jest: an error here makes the run fail (exit code 1). */
  getLastError(): Error | undefined {
    return this.#lastError;
  }

  // ---------------------------------------------------------------------------------------- Vitest

  /** Vitest: the instance, for its root and its logger. */
  onInit(vitest: VitestContext): void {
    this.#vitest = vitest;
    this.#root = vitest.config.root;
    const shard = vitest.config.shard;
    this.#shard = shard ? { shardIndex: shard.index, shardCount: shard.count } : undefined;
  }

  /** Vitest: a run starts (the first, or a watch-mode rerun). */
  onTestRunStart(): void {
    this.#begin();
  }

  /** Vitest: the run ended; prints through Vitest's logger. A failure sets the exit code, which Vitest keeps. */
  async onTestRunEnd(_testModules?: unknown, _unhandledErrors?: unknown, reason?: VitestRunEndReason): Promise<void> {
    const logger = this.#vitest?.logger ?? {
      log: (text: string) => process.stdout.write(`${text}\n`),
      error: (text: string) => process.stderr.write(`${text}\n`),
    };
    const failure = await this.#finish((text) => logger.log(text), reason === 'interrupted');
    if (failure) {
      logger.error(`${failure}\n`);
      process.exitCode = 1;
    }
  }
}
