// admission-harness/reporter: admission coverage across a whole Jest or Vitest run. Runners load a
// reporter by its module's default export (Jest through its require/import interop, Vitest by `default`).
import { AdmissionCoverageReporter } from './reporter';

export default AdmissionCoverageReporter;
export { AdmissionCoverageReporter };
export type { JestAggregatedResult, JestGlobalConfig, VitestContext, VitestRunEndReason } from './reporter';
export type { ReporterOptions } from './options';
export { COVERAGE_DIR_ENV } from '../admission-coverage/summary-files';
