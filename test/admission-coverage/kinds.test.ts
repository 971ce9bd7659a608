// The coverage of the other kinds of webhook kube-apiserver calls: an ImagePolicyWebhook backend (the request
// kinds the plugin reviews × the answer) and a CRD's conversion webhook (each ordered pair of the versions it
// serves or stores), in the table, the JSON, a merge of shard files (older files without them too) and the HTML.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  admissionWebhooksOf,
  ConversionCoverage,
  formatTable,
  ImageReviewCoverage,
  mergeSummaries,
  summarize,
  type CoverageSummary,
} from '../../lib/admission-coverage';
import { readSummaryFile } from '../../lib/admission-coverage/summary-files';
import { mergeCoverageCommand } from '../../lib/cli/merge-coverage';
import { htmlFromCoverage } from '../../lib/report';
import { thresholdFailure } from '../../lib/reporter/outcome';

const SERVER = 'https://images.example.com:8443/review';

describe('ImagePolicyWebhook backend cells', () => {
  it('are each reviewed request kind × allowed, denied and error, in a pod’s order, covered as reviews show them', () => {
    const coverage = new ImageReviewCoverage(SERVER);
    coverage.record({ operation: 'CREATE', subResource: '', answer: 'allowed' });
    coverage.record({ operation: 'UPDATE', subResource: 'ephemeralcontainers', answer: 'error' });
    const summary = coverage.summary();
    expect(summary).toMatchObject({ type: 'ImagePolicyWebhook', configuration: SERVER, covered: 2, total: 9, percent: 22.22, outside: [] });
    expect(summary.cells.map((cell) => [cell.key, cell.covered])).toEqual([
      ['CREATE pods: allowed', true],
      ['CREATE pods: denied', false],
      ['CREATE pods: error', false],
      ['UPDATE pods: allowed', false],
      ['UPDATE pods: denied', false],
      ['UPDATE pods: error', false],
      ['UPDATE pods/ephemeralcontainers: allowed', false],
      ['UPDATE pods/ephemeralcontainers: denied', false],
      ['UPDATE pods/ephemeralcontainers: error', true],
    ]);
  });

  it('adds a request kind kube-apiserver never reviews as a seen cell, listed last', () => {
    const coverage = new ImageReviewCoverage(SERVER);
    coverage.record({ operation: 'CREATE', subResource: 'ephemeralcontainers', answer: 'denied' });
    const cells = coverage.summary().cells;
    expect(cells).toHaveLength(10);
    expect(cells[9]).toMatchObject({ key: 'CREATE pods/ephemeralcontainers: denied', seen: true, covered: true });
  });
});

describe('conversion webhook cells', () => {
  it('are the ordered pairs of the served versions and the storage version, in spec.versions order; an unserved version is none', () => {
    // v1beta1 is declared but neither served nor stored; v0 is stored but not served.
    const coverage = new ConversionCoverage('widgets.stable.example.com', 'service ops/widgets/convert', ['v0', 'v1', 'v1beta1', 'v2'], ['v1', 'v2', 'v0']);
    coverage.record('v1', 'v2');
    const summary = coverage.summary();
    expect(summary).toMatchObject({
      type: 'conversion',
      configuration: 'widgets.stable.example.com',
      name: 'service ops/widgets/convert',
      covered: 1,
      total: 6,
    });
    expect(summary.cells.map((cell) => cell.key)).toEqual(['v0 to v1', 'v0 to v2', 'v1 to v0', 'v1 to v2', 'v2 to v0', 'v2 to v1']);
    expect(summary.uncovered).not.toContain('v1 to v2');
  });

  it('adds a pair with a version neither served nor stored, flagged seen', () => {
    const coverage = new ConversionCoverage('widgets.stable.example.com', 'https://c.example.com', ['v1', 'v1beta1', 'v2'], ['v1', 'v2']);
    coverage.record('v1', 'v1beta1');
    expect(coverage.summary().cells.map((cell) => `${cell.key}${'seen' in cell && cell.seen ? ' (seen)' : ''}`)).toEqual([
      'v1 to v1beta1 (seen)',
      'v1 to v2',
      'v2 to v1',
    ]);
  });
});

/** A shard's file from before these kinds existed: one admission webhook, half covered. */
const OLDER: CoverageSummary = {
  covered: 1,
  total: 2,
  percent: 50,
  webhooks: [
    {
      type: 'validating',
      configuration: 'pod-policy',
      name: 'pods.example.com',
      covered: 1,
      total: 2,
      percent: 50,
      uncovered: ['dryRun: true'],
      outside: [],
      cells: [
        { dimension: 'dryRun', key: 'dryRun: false', dryRun: false, covered: true },
        { dimension: 'dryRun', key: 'dryRun: true', dryRun: true, covered: false },
      ],
    },
  ],
};

function shardOf(record: (images: ImageReviewCoverage, conversion: ConversionCoverage) => void): CoverageSummary {
  const images = new ImageReviewCoverage(SERVER);
  const conversion = new ConversionCoverage('widgets.stable.example.com', 'https://c.example.com', ['v1', 'v2'], ['v1', 'v2']);
  record(images, conversion);
  return summarize([images.summary(), conversion.summary()]);
}

describe('the table, merges and the HTML page', () => {
  const first = shardOf((images, conversion) => {
    images.record({ operation: 'CREATE', subResource: '', answer: 'allowed' });
    conversion.record('v1', 'v2');
  });
  const second = shardOf((images, conversion) => {
    images.record({ operation: 'CREATE', subResource: '', answer: 'denied' });
    conversion.record('v2', 'v1');
  });

  it('lists the backend by its server and the conversion webhook by its CRD, under the admission webhooks', () => {
    const merged = mergeSummaries([OLDER, first, second]);
    expect(merged).toMatchObject({ covered: 5, total: 13 });
    expect(formatTable(merged)).toBe(
      [
        'Admission webhook                                          | Cells | % Covered',
        '-----------------------------------------------------------|-------|----------',
        'All webhooks                                               |  5/13 |     38.46',
        ' validating pod-policy/pods.example.com                    |   1/2 |     50.00',
        '     dryRun: true',
        ' ImagePolicyWebhook https://images.example.com:8443/review |   2/9 |     22.22',
        '     CREATE pods: error',
        '     UPDATE pods: allowed',
        '     UPDATE pods: denied',
        '     UPDATE pods: error',
        '     UPDATE pods/ephemeralcontainers: allowed',
        '     UPDATE pods/ephemeralcontainers: denied',
        '     UPDATE pods/ephemeralcontainers: error',
        ' conversion widgets.stable.example.com                     |   2/2 |    100.00',
      ].join('\n'),
    );
  });

  it('reads shard files with and without the new cells, and merge-coverage merges them', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'coverage-kinds-'));
    const files = [OLDER, first, second].map((summary, i) => {
      const file = path.join(dir, `admission.shard-${i + 1}-of-3.json`);
      writeFileSync(file, JSON.stringify(summary));
      return file;
    });
    expect(files.map((file) => readSummaryFile(file).webhooks.map((w) => w.type))).toEqual([
      ['validating'],
      ['ImagePolicyWebhook', 'conversion'],
      ['ImagePolicyWebhook', 'conversion'],
    ]);
    const out: string[] = [];
    const json = path.join(dir, 'merged.json');
    expect(await mergeCoverageCommand({ paths: files, json, threshold: 50 }, (text) => out.push(text))).toBe(1);
    expect(out.join('\n')).toContain(' conversion widgets.stable.example.com');
    expect(out.join('\n')).toContain(
      'admission coverage below the threshold of 50%:\n  ImagePolicyWebhook https://images.example.com:8443/review: 22.22% (2/9 cells)',
    );
    // The merged file is a summary that merges again to itself.
    const merged = readSummaryFile(json);
    expect(mergeSummaries([merged])).toEqual(merged);
    expect(merged.webhooks[2]?.cells.map((cell) => [cell.key, cell.covered])).toEqual([
      ['v1 to v2', true],
      ['v2 to v1', true],
    ]);
  });

  it('fails a threshold per webhook on the new kinds too', () => {
    expect(thresholdFailure(mergeSummaries([first]), 60)).toBe(
      [
        'admission coverage below the threshold of 60%:',
        '  ImagePolicyWebhook https://images.example.com:8443/review: 11.11% (1/9 cells)',
        '  conversion widgets.stable.example.com: 50% (1/2 cells)',
      ].join('\n'),
    );
  });

  it('shows their cells in the HTML page, each marked covered or not', () => {
    const page = htmlFromCoverage(mergeSummaries([first]));
    expect(page).toContain('<h3>ImagePolicyWebhook https://images.example.com:8443/review</h3>');
    expect(page).toContain('<h3>conversion widgets.stable.example.com</h3>');
    expect(page).toContain('<tr class="covered"><td class="dimension">imageReview</td><td class="cell"><code>CREATE pods: allowed</code></td>');
    expect(page).toContain('<tr class="uncovered"><td class="dimension">conversion</td><td class="cell"><code>v2 to v1</code></td>');
  });

  it('are left out of the admission webhooks’ part that check and replay count', () => {
    const part = admissionWebhooksOf(mergeSummaries([OLDER, first]));
    expect(part).toEqual(mergeSummaries([OLDER]));
  });
});
