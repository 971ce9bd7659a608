import { CoverageCollector, directCallEvent, selectorResults, type CoverageRequest } from '../admission-coverage';
import { CoverageLog } from '../admission-coverage/coverage-log';
import type { KindCoverage } from '../admission-coverage/kind-coverage';
import { COVERAGE_DIR_ENV, writeSummaryFile } from '../admission-coverage/summary-files';
import type { WebhookEntry } from '../config/load';
import type { TraceStep } from '../dispatch/trace';
import type { AdmissionAttributes } from '../kube/attributes';
import type { ResourceCatalog } from '../kube/catalog';
import type { NamespaceRegistry } from '../match/namespace-store';

/** Admission coverage of one harness: what its calls and admissions exercised, counted when asked. */
export interface HarnessCoverage {
  /** Records an `h.call` to a webhook of the manifests. */
  call(entry: WebhookEntry, attributes: AdmissionAttributes): void;
  /** Records an `h.admit`, from its trace. */
  admission(steps: readonly TraceStep[], attributes: AdmissionAttributes): void;
  /** `h.coverage()`: the cells exercised so far. */
  collector(): CoverageCollector;
  /**
   * Under admission-harness/reporter (ADMISSION_HARNESS_COVERAGE_DIR), leaves the summary for the run's
   * report. A harness that recorded nothing adds nothing to a merge, so it writes no file.
   */
  writeSummary(): void;
}

function coverageRequest(attributes: AdmissionAttributes): CoverageRequest {
  return {
    operation: attributes.operation,
    resource: attributes.resource,
    subResource: attributes.subResource,
    namespace: attributes.namespace,
    dryRun: attributes.dryRun,
  };
}

/** The coverage of another kind as it is now: what `h.coverage()` returns does not change with later requests. */
function snapshot(kind: KindCoverage): KindCoverage {
  const cells = kind.cells();
  const summary = kind.summary();
  return {
    type: kind.type,
    configuration: kind.configuration,
    name: kind.name,
    cells: () => cells.map((cell) => ({ ...cell })),
    summary: () => structuredClone(summary),
  };
}

/** `kinds`: the coverage of the other kinds of webhook the harness's capabilities call, which they record. */
export function harnessCoverage(
  webhooks: readonly WebhookEntry[],
  catalog: ResourceCatalog,
  namespaces: NamespaceRegistry,
  kinds: readonly KindCoverage[] = [],
): HarnessCoverage {
  const log = new CoverageLog();
  const collector = (): CoverageCollector => {
    const collected = new CoverageCollector(webhooks, { catalog, kinds: kinds.map(snapshot) });
    for (const event of log.events(webhooks)) collected.record(event);
    return collected;
  };
  return {
    call: (entry, attributes) => log.call(directCallEvent(entry, coverageRequest(attributes), selectorResults(entry.spec, attributes, namespaces))),
    admission: (steps, attributes) => log.admission(steps, coverageRequest(attributes)),
    collector,
    writeSummary() {
      const dir = process.env[COVERAGE_DIR_ENV];
      const recorded = log.events(webhooks).length > 0 || kinds.some((kind) => kind.summary().covered > 0);
      if (dir && recorded) writeSummaryFile(dir, collector().summary());
    },
  };
}
