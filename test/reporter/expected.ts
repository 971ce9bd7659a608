// The coverage the end-to-end projects should report, counted in-process from the same requests.
import { mergeSummaries, type CoverageSummary } from '../../lib/admission-coverage';
import { exercises, harness, type FileName } from './fixtures/two-files';

export interface Expected {
  perFile: Record<FileName, CoverageSummary>;
  merged: CoverageSummary;
  /** A threshold every webhook of `merged` reaches: its lowest percentage, rounded down. */
  met: number;
}

export async function expectedCoverage(): Promise<Expected> {
  const perFile = {} as Record<FileName, CoverageSummary>;
  for (const name of ['a', 'b'] satisfies FileName[]) {
    const h = await harness();
    try {
      await exercises[name](h);
      perFile[name] = h.coverage().summary();
    } finally {
      await h.close();
    }
  }
  const merged = mergeSummaries([perFile.a, perFile.b]);
  return { perFile, merged, met: Math.floor(Math.min(...merged.webhooks.map((w) => w.percent))) };
}
