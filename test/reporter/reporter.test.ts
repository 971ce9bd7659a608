// The reporter class driven by hand through Jest's and Vitest's hooks, with summaries written as the
// harnesses of a run would; the real runners are driven in jest.e2e and vitest.e2e.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConversionCoverage, ImageReviewCoverage, mergeSummaries, summarize, type CoverageSummary } from '../../lib/admission-coverage';
import AdmissionCoverageReporter, { COVERAGE_DIR_ENV } from '../../lib/reporter';
import { htmlReportModule } from '../../lib/reporter/html';
import { runOutcome, thresholdFailure } from '../../lib/reporter/outcome';
import { writeSummaryFile } from '../../lib/admission-coverage/summary-files';

/** Two webhooks; `coveredM` of m's 4 cells and `coveredV` of v's 2 covered. */
function summary(coveredM: number, coveredV: number): CoverageSummary {
  const cells = (count: number, covered: number) =>
    Array.from({ length: count }, (_, i) => ({ dimension: 'dryRun' as const, key: `cell ${i}`, dryRun: i % 2 === 0, covered: i < covered }));
  const webhook = (type: 'mutating' | 'validating', name: string, count: number, covered: number) => ({
    type,
    configuration: name,
    name: `${name}.example.com`,
    covered,
    total: count,
    percent: (covered / count) * 100,
    uncovered: [],
    outside: [],
    cells: cells(count, covered),
  });
  return mergeSummaries([{ covered: 0, total: 0, percent: 0, webhooks: [webhook('mutating', 'm', 4, coveredM), webhook('validating', 'v', 2, coveredV)] }]);
}

let root: string;
let previous: string | undefined;
let stderr: jest.SpiedFunction<typeof process.stderr.write>;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'ah-reporter-unit-'));
  previous = process.env[COVERAGE_DIR_ENV];
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  stderr.mockRestore();
  if (previous === undefined) delete process.env[COVERAGE_DIR_ENV];
  else process.env[COVERAGE_DIR_ENV] = previous;
  rmSync(root, { recursive: true, force: true });
});
const printed = () => stderr.mock.calls.map(([chunk]) => String(chunk)).join('');

describe('under Jest', () => {
  it('hands its directory to the workers through the environment, and removes it at the end', async () => {
    const reporter = new AdmissionCoverageReporter({ rootDir: root }, {}, {});
    expect(process.env[COVERAGE_DIR_ENV]).toBe(reporter.directory);
    reporter.onRunStart();
    writeSummaryFile(reporter.directory, summary(1, 0));
    writeSummaryFile(reporter.directory, summary(2, 1));
    await reporter.onRunComplete(new Set(), {});
    expect(printed()).toContain('All webhooks');
    expect(printed()).toMatch(/mutating m\/m\.example\.com\s+\|\s+2\/4/);
    expect(printed()).toMatch(/validating v\/v\.example\.com\s+\|\s+1\/2/);
    expect(reporter.getLastError()).toBeUndefined();
    expect(existsSync(reporter.directory)).toBe(false);
    expect(process.env[COVERAGE_DIR_ENV]).toBe(previous);
  });

  it('fails through getLastError when the threshold is not met, and writes the JSON relative to rootDir', async () => {
    const reporter = new AdmissionCoverageReporter({ rootDir: root }, { threshold: 75, json: 'deep/er/admission.json' }, {});
    reporter.onRunStart();
    writeSummaryFile(reporter.directory, summary(3, 1));
    await reporter.onRunComplete(new Set(), {});
    const message = 'admission coverage below the threshold of 75%:\n  validating v/v.example.com: 50% (1/2 cells)';
    expect(reporter.getLastError()?.message).toBe(message);
    expect(printed()).toContain(message);
    expect(JSON.parse(readFileSync(path.join(root, 'deep/er/admission.json'), 'utf8'))).toEqual(summary(3, 1));
  });

  it('starts each run empty: a summary left from an earlier run does not count', async () => {
    const reporter = new AdmissionCoverageReporter({ rootDir: root }, { threshold: 100 }, {});
    writeSummaryFile(reporter.directory, summary(4, 2));
    reporter.onRunStart();
    writeSummaryFile(reporter.directory, summary(4, 1));
    await reporter.onRunComplete(new Set(), {});
    expect(reporter.getLastError()?.message).toContain('validating v/v.example.com: 50%');
  });

  it('does not judge the threshold of an interrupted run', async () => {
    const reporter = new AdmissionCoverageReporter({ rootDir: root }, { threshold: 100 }, {});
    reporter.onRunStart();
    writeSummaryFile(reporter.directory, summary(0, 0));
    await reporter.onRunComplete(new Set(), { wasInterrupted: true });
    expect(reporter.getLastError()).toBeUndefined();
  });

  it('fails with the error, not a stack, when a summary cannot be read', async () => {
    const reporter = new AdmissionCoverageReporter({ rootDir: root }, {}, {});
    reporter.onRunStart();
    writeFileSync(path.join(reporter.directory, 'x.json'), 'not json');
    await reporter.onRunComplete(new Set(), {});
    expect(reporter.getLastError()?.message).toMatch(/^cannot read the admission coverage summary .*x\.json/);
    expect(existsSync(reporter.directory)).toBe(false);
  });

  it('refuses invalid options when constructed', () => {
    expect(() => new AdmissionCoverageReporter({ rootDir: root }, { threshold: 80, of: 'eahc' } as never, {})).toThrow(
      'option of must be "each" or "total", got "eahc" (did you mean "each"?)',
    );
  });
});

describe('under Vitest', () => {
  const logger = () => {
    const lines = { log: [] as string[], error: [] as string[] };
    return { lines, logger: { log: (text: unknown) => lines.log.push(String(text)), error: (text: unknown) => lines.error.push(String(text)) } };
  };

  it('prints through the logger and sets the exit code when the threshold is not met', async () => {
    const exitCode = process.exitCode;
    try {
      const { lines, logger: log } = logger();
      const reporter = new AdmissionCoverageReporter({ threshold: 60, of: 'total', json: 'admission.json' });
      reporter.onInit({ config: { root }, logger: log });
      reporter.onTestRunStart();
      expect(process.env[COVERAGE_DIR_ENV]).toBe(reporter.directory);
      writeSummaryFile(reporter.directory, summary(1, 1));
      writeSummaryFile(reporter.directory, summary(2, 0));
      await reporter.onTestRunEnd([], [], 'passed');
      expect(lines.log.join('\n')).toContain('All webhooks');
      expect(lines.error.join('\n')).toContain(
        'admission coverage of all webhooks is 50% (3/6 cells), below the threshold of 60%; the webhooks below it:\n  mutating m/m.example.com: 50% (2/4 cells)',
      );
      expect(process.exitCode).toBe(1);
      expect(existsSync(path.join(root, 'admission.json'))).toBe(true);
      expect(existsSync(reporter.directory)).toBe(false);
    } finally {
      process.exitCode = exitCode;
    }
  });

  it('runs again in watch mode: each rerun gets the directory back, empty', async () => {
    const { lines, logger: log } = logger();
    const reporter = new AdmissionCoverageReporter({});
    reporter.onInit({ config: { root }, logger: log });
    for (const covered of [1, 3]) {
      reporter.onTestRunStart();
      writeSummaryFile(reporter.directory, summary(covered, 0));
      await reporter.onTestRunEnd([], [], 'passed');
    }
    expect(lines.log).toHaveLength(2);
    expect(lines.log[0]).toMatch(/mutating m\/m\.example\.com\s+\|\s+1\/4/);
    expect(lines.log[1]).toMatch(/mutating m\/m\.example\.com\s+\|\s+3\/4/);
    expect(lines.error).toEqual([]);
  });
});

describe('the threshold', () => {
  it('fails a run in which no harness recorded anything, saying how a harness reports', () => {
    expect(thresholdFailure({ covered: 0, total: 0, percent: 100, webhooks: [] }, 50)).toMatch(/no harness recorded a call or an admission .*h\.close\(\)/);
  });

  it('is met at exactly the percentage, per webhook or in total', () => {
    expect(thresholdFailure(summary(2, 1), 50)).toBeUndefined();
    expect(thresholdFailure(summary(2, 1), 50.01)).toContain('below the threshold of 50.01%');
    expect(thresholdFailure(summary(4, 0), 66.66, 'total')).toBeUndefined();
    expect(thresholdFailure(summary(4, 0), 66.67, 'total')).toContain('is 66.67% (4/6 cells), below the threshold of 66.67%');
  });
});

describe('the html option', () => {
  it('writes the page lib/report renders for the merged summary', async () => {
    const rendered: CoverageSummary[] = [];
    const html = htmlReportModule(() => ({
      htmlFromCoverage: (merged: CoverageSummary) => {
        rendered.push(merged);
        return { toString: () => '<!doctype html><p>report</p>' };
      },
    }));
    await runOutcome([summary(1, 0), summary(0, 1)], { html: 'out/admission.html' }, root, html);
    expect(readFileSync(path.join(root, 'out/admission.html'), 'utf8')).toBe('<!doctype html><p>report</p>');
    expect(rendered).toEqual([summary(1, 1)]);
  });

  it("loads lib/report's htmlFromCoverage by default", () => {
    const page = String(htmlReportModule().htmlFromCoverage(summary(1, 1)));
    expect(page).toContain('m.example.com');
    expect(page).toContain('v.example.com');
  });

  it('is refused with a clear error when the build has no HTML report', () => {
    expect(() => htmlReportModule(() => undefined)).toThrow(
      'admission-harness/reporter: option html: this build of admission-harness has no HTML coverage report (its report module is missing)',
    );
    expect(() => htmlReportModule(() => ({}))).toThrow('(its report module has no htmlFromCoverage)');
  });
});

describe('the other kinds of webhook', () => {
  /** What a harness with an ImagePolicyWebhook backend and a conversion webhook leaves, one review and one pair covered. */
  function kindsSummary(answer: 'allowed' | 'denied'): CoverageSummary {
    const images = new ImageReviewCoverage('https://images.example.com/review');
    images.record({ operation: 'CREATE', subResource: '', answer });
    const conversion = new ConversionCoverage('widgets.stable.example.com', 'https://c.example.com', ['v1', 'v2'], ['v1', 'v2']);
    conversion.record('v1', 'v2');
    return summarize([images.summary(), conversion.summary()]);
  }

  it('prints their rows beside an older summary without them, writes their cells to the JSON and the HTML page, and judges the threshold on them', async () => {
    const reporter = new AdmissionCoverageReporter({ rootDir: root }, { threshold: 50, json: 'admission.json', html: 'admission.html' }, {});
    reporter.onRunStart();
    writeSummaryFile(reporter.directory, summary(4, 2));
    writeSummaryFile(reporter.directory, kindsSummary('allowed'));
    writeSummaryFile(reporter.directory, kindsSummary('denied'));
    await reporter.onRunComplete(new Set(), {});
    expect(printed()).toMatch(/mutating m\/m\.example\.com\s+\|\s+4\/4/);
    expect(printed()).toMatch(/ImagePolicyWebhook https:\/\/images\.example\.com\/review\s+\|\s+2\/9 \|\s+22\.22\n {5}CREATE pods: error\n/);
    expect(printed()).toMatch(/conversion widgets\.stable\.example\.com\s+\|\s+1\/2 \|\s+50\.00\n {5}v2 to v1\n/);
    expect(reporter.getLastError()?.message).toBe(
      'admission coverage below the threshold of 50%:\n  ImagePolicyWebhook https://images.example.com/review: 22.22% (2/9 cells)',
    );
    const written = JSON.parse(readFileSync(path.join(root, 'admission.json'), 'utf8')) as CoverageSummary;
    expect(written.webhooks.map((w) => w.type)).toEqual(['mutating', 'validating', 'ImagePolicyWebhook', 'conversion']);
    expect(readFileSync(path.join(root, 'admission.html'), 'utf8')).toContain('<code>CREATE pods: denied</code>');
  });
});
