// htmlFromCoverage, for a test run's reporter: the coverage of the example's battery alone.
import { htmlFromCoverage } from '../../lib/report';
import type { CoverageSummary } from '../../lib/admission-coverage';
import { closeAll, exampleBattery, partialExampleCoverage, type BatteryRun } from './inputs';
import { countWithClass, externalReferences } from './offline';

let run: BatteryRun;
let partial: CoverageSummary;
beforeAll(async () => {
  run = await exampleBattery();
  partial = await partialExampleCoverage();
});
afterAll(closeAll);

describe('htmlFromCoverage', () => {
  it('shows the total and every webhook’s cells, covered or not', () => {
    const page = htmlFromCoverage(partial);
    expect(page.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(page).toContain('<title>admission-harness coverage</title>');
    expect(page).toContain(`<strong>${partial.percent.toFixed(2)} %</strong> covered`);
    expect(page).toContain(`<strong>${partial.covered}</strong> of ${partial.total} cells`);
    const cells = partial.webhooks.flatMap((w) => w.cells);
    const uncovered = cells.filter((cell) => !cell.covered);
    expect(uncovered.length).toBeGreaterThan(0);
    expect(uncovered.length).toBeLessThan(cells.length);
    expect(countWithClass(page, 'uncovered')).toBe(uncovered.length);
    expect(countWithClass(page, 'covered')).toBe(cells.length - uncovered.length);
    for (const cell of uncovered)
      expect(page).toContain(`<tr class="uncovered"><td class="dimension">${cell.dimension}</td><td class="cell"><code>${cell.key}</code>`);
    expect(externalReferences(page)).toEqual([]);
  });

  it('shows a battery run of the example fully covered, every cell of every webhook', () => {
    const { coverage } = run;
    expect(coverage.covered).toBe(coverage.total);
    expect(countWithClass(htmlFromCoverage(coverage), 'uncovered')).toBe(0);
  });

  it('says whether a threshold is met', () => {
    expect(htmlFromCoverage(run.coverage, { threshold: 50 })).toContain('<span class="badge passed">met</span> <span class="muted">threshold 50 %');
    expect(htmlFromCoverage(partial, { threshold: 100 })).toContain('<span class="badge failed">below</span> <span class="muted">threshold 100 %');
  });

  it('writes the same bytes for the same input', () => {
    expect(htmlFromCoverage(run.coverage)).toBe(htmlFromCoverage(run.coverage));
  });
});
