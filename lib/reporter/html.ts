import type { CoverageSummary } from '../admission-coverage';
import { HarnessError } from '../errors';

/** The page as text, or markup that prints as it (lib/report builds pages as `Html` objects). */
type Page = string | { toString(): string };

/** What the reporter needs of lib/report: the HTML page of a coverage summary. */
export interface HtmlReportModule {
  htmlFromCoverage(summary: CoverageSummary): Page | Promise<Page>;
}

/**
 * lib/report, loaded only when the `html` option asks for it: the HTML report is heavier than the
 * table and most runs do not write one. A require inside try/catch lets the bundler leave it unresolved
 * (a warning, not an error) in a build made without lib/report, which then fails here with a message.
 */
function requireReport(): HtmlReportModule | undefined {
  try {
    // Typed as lib/report is, so that tsc checks the reporter can call it.
    const report: HtmlReportModule = require('../report') as typeof import('../report');
    return report;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && /['"]\.\.\/report['"]/.test((error as Error).message)) return undefined;
    throw new HarnessError(
      'USAGE',
      `admission-harness/reporter: option html: the HTML report module failed to load: ${(error as Error).message}`,
      'this is a bug in admission-harness; leave out the html option meanwhile',
      { cause: error },
    );
  }
}

/**
 * The HTML report module, or a HarnessError saying this build cannot write HTML. `load` is for tests;
 * it returns the module, or undefined when there is none.
 */
export function htmlReportModule(load: () => unknown = requireReport): HtmlReportModule {
  const loaded = load() as Partial<HtmlReportModule> | undefined;
  if (typeof loaded?.htmlFromCoverage !== 'function') {
    throw new HarnessError(
      'USAGE',
      `admission-harness/reporter: option html: this build of admission-harness has no HTML coverage report (${loaded === undefined ? 'its report module is missing' : 'its report module has no htmlFromCoverage'})`,
      'leave out the html option, or use the json option and render the summary yourself',
    );
  }
  return loaded as HtmlReportModule;
}
