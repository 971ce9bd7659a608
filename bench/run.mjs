// Runs every benchmark in bench/ and prints a table of medians (min–max) with the ratio to the
// baseline measured in the same run; `--json` prints {"benchmarks":[…]}.
import { coldstart } from './coldstart.mjs';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x) => (x === undefined ? '—' : x.toFixed(1));

const rows = [];
for (const bench of [coldstart]) {
  for (const r of await bench()) {
    const m = median(r.samples);
    const b = r.baseline ? median(r.baseline) : undefined;
    rows.push({
      name: r.name,
      median_ms: m,
      min_ms: Math.min(...r.samples),
      max_ms: Math.max(...r.samples),
      baseline_median_ms: b,
      ratio: b ? m / b : undefined,
      goal: r.goal,
      met: r.goalMs === undefined ? undefined : m <= r.goalMs,
    });
  }
}

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ benchmarks: rows }, null, 2));
} else {
  console.log('benchmark   median ms (min–max)     baseline ms   ratio   goal');
  for (const r of rows) {
    const met = r.met === undefined ? '' : r.met ? ' ✓' : ' ✗';
    console.log(
      `${r.name.padEnd(11)} ${`${fmt(r.median_ms)} (${fmt(r.min_ms)}–${fmt(r.max_ms)})`.padEnd(23)} ${fmt(r.baseline_median_ms).padEnd(13)} ${(r.ratio ? `${r.ratio.toFixed(2)}×` : '—').padEnd(7)} ${r.goal}${met}`,
    );
  }
}
