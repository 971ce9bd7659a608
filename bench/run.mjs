// Runs the benchmarks in bench/ and prints medians (min–max) with the ratio to a baseline measured in
// the same run; `--json` prints {"benchmarks":[…]}. `-- --only NAME` runs one benchmark.
import { battery } from './battery.mjs';
import { call } from './call.mjs';
import { chain } from './chain.mjs';
import { coldstart } from './coldstart.mjs';
import { generate } from './generate.mjs';
import { jest } from './jest-run.mjs';
import { median } from './lib.mjs';
import { memory } from './memory.mjs';
import { registry } from './registry.mjs';
import { replay } from './replay.mjs';

const benches = { coldstart, call, chain, jest, battery, generate, registry, replay, memory };
benches.informer = (await import('./informer.mjs')).informer;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const fmt = (x) => (x === undefined ? '—' : x < 1 ? x.toFixed(3) : x.toFixed(1));

// A paired row's ratio with the spread of its rounds' own ratios: on a shared machine the spread says
// how far one run's ratio can be trusted.
const ratioText = (r) => {
  if (!r.ratio) return '—';
  if (!r.ratios || r.ratios.length < 2) return `${r.ratio.toFixed(2)}×`;
  return `${r.ratio.toFixed(2)}× (${Math.min(...r.ratios).toFixed(2)}–${Math.max(...r.ratios).toFixed(2)})`;
};

const rows = [];
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  for (const r of await bench()) {
    const m = median(r.samples);
    const b = r.baseline ? median(r.baseline) : undefined;
    // Paired benchmarks give each round's own ratio; their median is the ratio reported.
    const ratio = r.ratios ? median(r.ratios) : b ? m / b : undefined;
    const met = r.goalMs !== undefined ? m <= r.goalMs : r.goalRatio !== undefined && ratio !== undefined ? ratio <= r.goalRatio : undefined;
    rows.push({
      name: r.name,
      ratios: r.ratios,
      unit: r.unit ?? 'ms',
      median_ms: m,
      min_ms: Math.min(...r.samples),
      max_ms: Math.max(...r.samples),
      baseline_median_ms: b,
      ratio,
      goal: r.goal,
      met,
    });
  }
}

if (process.argv.includes('--json')) {
  // Every member always present: null where a benchmark has no baseline or no goal to meet.
  const json = rows.map(({ name, median_ms, baseline_median_ms, ratio, ratios, goal, met }) => ({
    name,
    median_ms,
    baseline_median_ms: baseline_median_ms ?? null,
    ratio: ratio ?? null,
    // The spread of a paired benchmark's rounds' own ratios.
    ratio_min: ratios ? Math.min(...ratios) : null,
    ratio_max: ratios ? Math.max(...ratios) : null,
    goal,
    met: met ?? null,
  }));
  console.log(JSON.stringify({ benchmarks: json }, null, 2));
} else {
  console.log(`${'benchmark'.padEnd(17)} ${'median (min–max)'.padEnd(34)} baseline    ratio (min–max)      goal`);
  for (const r of rows) {
    const met = r.met === undefined ? '' : r.met ? ' ✓' : ' ✗';
    console.log(
      `${r.name.padEnd(17)} ${`${fmt(r.median_ms)} ${r.unit} (${fmt(r.min_ms)}–${fmt(r.max_ms)})`.padEnd(34)} ${fmt(r.baseline_median_ms).padEnd(11)} ${ratioText(r).padEnd(20)} ${r.goal}${met}`,
    );
  }
}
