// htmlFromCoverage, for a test run's reporter: the coverage of the example's battery alone.
import { htmlFromCoverage } from '../../lib/report';
import { closeAll, exampleBattery, type BatteryRun } from './inputs';
import { countWithClass, externalReferences } from './offline';

let run: BatteryRun;
beforeAll(async () => {
  run = await exampleBattery();
});
afterAll(closeAll);

describe('htmlFromCoverage', () => {
  it('shows the total and every webhook’s cells, covered or not', () => {
    const { coverage } = run;
    const page = htmlFromCoverage(coverage);
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain('<title>admission-harness coverage</title>');
    expect(page).toContain(`<strong>${coverage.percent.toFixed(2)} %</strong> covered`);
    expect(page).toContain(`<strong>${coverage.covered}</strong> of ${coverage.total} cells`);
    const uncovered = coverage.webhooks.flatMap((w) => w.uncovered);
    expect(uncovered.length).toBeGreaterThan(0);
    expect(countWithClass(page, 'uncovered')).toBe(uncovered.length);
    for (const key of uncovered) expect(page).toContain(`<tr class="uncovered"><td class="dimension">namespaceSelector</td><td class="cell"><code>${key}</code>`);
    expect(externalReferences(page)).toEqual([]);
  });

  it('says whether a threshold is met', () => {
    expect(htmlFromCoverage(run.coverage, { threshold: 50 })).toContain('<span class="badge passed">met</span> <span class="muted">threshold 50 %');
    expect(htmlFromCoverage(run.coverage, { threshold: 100 })).toContain('<span class="badge failed">below</span> <span class="muted">threshold 100 %');
  });

  it('writes the same bytes for the same input', () => {
    expect(htmlFromCoverage(run.coverage)).toBe(htmlFromCoverage(run.coverage));
  });
});
