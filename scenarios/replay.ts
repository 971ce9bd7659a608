import { HarnessError } from '../lib/errors';
import { createHarness, type Harness, type HarnessOptions } from '../lib/harness';
import { isNew, loadFixtures, namespacesOfFixtures, runFixture, formatResult, fixtureTitle, type RunOptions } from '../lib/replay';

/** A harness to replay against: one, or a function giving it when the first test runs (one made in a `beforeAll`). */
export type HarnessSource = Harness | (() => Harness | Promise<Harness>);

/**
 * Options of `replay()`: the harness (`harness`, or HarnessOptions such as `{ manifests, target }` to
 * build one for the whole file, closed after it), and how to replay (`webhook`, `followUps`, `update`).
 */
export interface ReplaySuiteOptions extends HarnessOptions, RunOptions {
  harness?: HarnessSource;
}

/** The environment variable that turns `update` on, as `jest -u` does for snapshots. */
export const UPDATE_VARIABLE = 'ADMISSION_HARNESS_UPDATE';

type TestBody = () => Promise<void>;

interface TestRegistrar {
  describe(name: string, body: () => void): void;
  it(name: string, body: TestBody): void;
  beforeAll(body: () => Promise<void>): void;
  afterAll(body: () => Promise<void>): void;
}

/**
 * Registers fixtures as Jest (or Vitest) tests, golden-test style: a `describe` for the files or
 * directories given, an `it` per fixture that replays it against the harness's webhooks (a
 * RecordedAdmission through the whole chain, a RecordedReview as one call) and fails with what differs
 * from each webhook's recorded answer (the patch as the object diff) and with any failed follow-up check
 * (object validity, idempotence). Fixtures are read, and validated, when
 * `replay` is called: an invalid one fails the test file with the file, line and field at fault.
 *
 * A fixture without a recorded response is new: its test says so in its name and compares nothing. With
 * `update` — by default `ADMISSION_HARNESS_UPDATE=1` in the environment, like `jest -u` — new fixtures get
 * the webhook's answer as their response and fixtures whose answer changed are rewritten, in place.
 *
 * One harness serves every fixture: `options.harness`, or one built from the other options (say
 * `{ manifests, target }`) before the first test and closed after the last. Call `replay` at the top
 * level of a test file.
 */
export function replay(dirOrFiles: string | readonly string[], options: ReplaySuiteOptions = {}): void {
  const { describe, it, beforeAll, afterAll } = globalThis as unknown as Partial<TestRegistrar>;
  if (!describe || !it || !beforeAll || !afterAll)
    throw new Error('replay registers tests: call it at the top level of a Jest or Vitest test file (with globals), or use replayFixtures from the library');
  const paths = typeof dirOrFiles === 'string' ? [dirOrFiles] : [...dirOrFiles];
  const { harness: given, webhook, followUps, update = process.env[UPDATE_VARIABLE] === '1', ...harnessOptions } = options;
  const building = Object.entries(harnessOptions)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  if (given && building.length > 0) {
    throw new HarnessError(
      'USAGE',
      `replay: options.harness is given, and so are ${building.join(', ')}, which only build a harness`,
      'pass either a harness or the options to build one ({ manifests, target, … })',
    );
  }
  const fixtures = loadFixtures(paths);
  const runOptions: RunOptions = { update, ...(webhook !== undefined ? { webhook } : {}), ...(followUps !== undefined ? { followUps } : {}) };

  describe(`replay ${paths.join(', ')}`, () => {
    let owned: Promise<Harness> | undefined;
    let resolved: Promise<Harness> | undefined;
    // Built before the first test, not at registration: a file whose tests are all filtered out starts no server.
    const harness = (): Promise<Harness> => {
      // A harness built here declares the namespaces the recorded admissions happened in.
      resolved ??= given
        ? Promise.resolve(typeof given === 'function' ? given() : given)
        : (owned = createHarness({ ...harnessOptions, namespaces: namespacesOfFixtures(fixtures, harnessOptions.namespaces) }));
      return resolved;
    };
    beforeAll(async () => {
      if (!given) await harness();
    });
    afterAll(async () => {
      // A harness that failed to start has failed the tests already; only a started one needs closing.
      const started = await owned?.catch(() => undefined);
      await started?.close();
    });
    for (const fixture of fixtures) {
      const state = !isNew(fixture)
        ? ''
        : update
          ? ' [new: its answer is recorded]'
          : ` [new: no recorded answer, not compared; ${UPDATE_VARIABLE}=1 records it]`;
      it(`${fixtureTitle({ fixture })}${state}`, async () => {
        const report = await runFixture(await harness(), fixture, runOptions);
        if (report.verdict === 'failed') throw new Error(formatResult(report));
      });
    }
  });
}
