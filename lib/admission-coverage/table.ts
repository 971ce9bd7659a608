import { webhookLabel, type CoverageSummary } from './summary';

const percentText = (percent: number): string => percent.toFixed(2);

/**
 * Code coverage's table, for webhooks: one row per webhook (covered/total cells and the
 * percentage) under a total row, each followed by its uncovered cells, indented, the requests it
 * was sent outside its rules and those its rules match that something refused first, marked as such. Only what is left to do is listed, as `text-summary`
 * reporters do, so a fully covered suite prints one line per webhook.
 */
export function formatTable(summary: CoverageSummary): string {
  const rows = [
    { label: 'All webhooks', cells: `${summary.covered}/${summary.total}`, percent: percentText(summary.percent), details: [] as string[] },
    ...summary.webhooks.map((w) => ({
      label: ` ${webhookLabel(w)}`,
      cells: `${w.covered}/${w.total}`,
      percent: percentText(w.percent),
      details: [
        ...w.uncovered,
        ...w.outside.map((request) => `outside its rules: ${request}`),
        ...(w.unreached ?? []).map((request) => `not reached: ${request}`),
      ],
    })),
  ];
  const headers = { label: 'Admission webhook', cells: 'Cells', percent: '% Covered' };
  const width = {
    label: Math.max(headers.label.length, ...rows.map((r) => r.label.length)),
    cells: Math.max(headers.cells.length, ...rows.map((r) => r.cells.length)),
    percent: Math.max(headers.percent.length, ...rows.map((r) => r.percent.length)),
  };
  const line = (label: string, cells: string, percent: string): string =>
    `${label.padEnd(width.label)} | ${cells.padStart(width.cells)} | ${percent.padStart(width.percent)}`;
  const lines = [line(headers.label, headers.cells, headers.percent), `${'-'.repeat(width.label)}-|-${'-'.repeat(width.cells)}-|-${'-'.repeat(width.percent)}`];
  for (const row of rows) {
    lines.push(line(row.label, row.cells, row.percent));
    for (const detail of row.details) lines.push(`     ${detail}`);
  }
  return lines.join('\n');
}
