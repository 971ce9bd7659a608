import { compareCells, copyCell } from './cell';
import { stillUnreached, summarize, webhookSummary, type CellStatus, type CoverageSummary, type WebhookSummary } from './summary';

/**
 * Several summaries of the same manifests as one (Jest runs test files in separate workers, each
 * with its own collector): a cell is covered if any summary covered it, cells seen by only some
 * (resources met through a wildcard) are all kept. Cells are matched by key, which depends only on
 * the registration and the catalog; webhooks by type, configuration and name, in first-seen order.
 */
export function mergeSummaries(summaries: readonly CoverageSummary[]): CoverageSummary {
  const webhooks = new Map<string, { head: WebhookSummary; cells: Map<string, CellStatus>; outside: Set<string>; unreached: Set<string> }>();
  for (const summary of summaries) {
    for (const webhook of summary.webhooks) {
      const id = `${webhook.type}/${webhook.configuration}/${webhook.name}`;
      let merged = webhooks.get(id);
      if (!merged) {
        merged = { head: webhook, cells: new Map(), outside: new Set(), unreached: new Set() };
        webhooks.set(id, merged);
      }
      for (const cell of webhook.cells) {
        const known = merged.cells.get(cell.key);
        if (!known) merged.cells.set(cell.key, copyCell(cell));
        else if (cell.covered) known.covered = true;
      }
      for (const request of webhook.outside) merged.outside.add(request);
      for (const request of webhook.unreached ?? []) merged.unreached.add(request);
    }
  }
  return summarize(
    [...webhooks.values()].map(({ head, cells, outside, unreached }) => {
      const list = [...cells.values()].sort(compareCells);
      const covered = new Set(list.filter((cell) => cell.covered).map((cell) => cell.key));
      return webhookSummary({ type: head.type, configuration: head.configuration, name: head.name }, list, covered, {
        outside: [...outside].sort(),
        unreached: stillUnreached(unreached, covered),
      });
    }),
  );
}
