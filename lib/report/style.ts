/**
 * The report's whole stylesheet, inlined into each document: system fonts and no `url()`, so the file
 * renders offline exactly as it does online. Colours follow the reader's light or dark preference.
 */
export const REPORT_CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9; --new: #9a6700; --new-bg: #fff8c5;
  --info: #0969da; --info-bg: #ddf4ff; --bar: #54aeff; --bar-fail: #ff8182; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d;
    --pass: #3fb950; --pass-bg: #12261e; --fail: #f85149; --fail-bg: #2d1214; --new: #d29922; --new-bg: #272115;
    --info: #4493f8; --info-bg: #121d2f; --bar: #1f6feb; --bar-fail: #da3633; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; padding: 1.5rem; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 80rem; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 0 0 .5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
h4 { font-size: .95rem; margin: .75rem 0 .25rem; }
h4 .muted { font-weight: normal; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { margin: .25rem 0; padding: .5rem .75rem; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; overflow: auto; max-height: 32rem; white-space: pre; }
pre.wrap { white-space: pre-wrap; word-break: break-word; }
a { color: var(--info); }
table { border-collapse: collapse; width: 100%; margin: .25rem 0; }
th, td { text-align: left; vertical-align: top; padding: .25rem .5rem; border-bottom: 1px solid var(--line); }
th { font-weight: 600; color: var(--muted); }
td pre { margin: 0; max-height: 16rem; }
table.checks td.check { white-space: nowrap; }
table.checks td.passed-list code { margin-right: .75rem; white-space: nowrap; }
.muted { color: var(--muted); }
.badge { display: inline-block; min-width: 3.5rem; text-align: center; padding: 0 .5rem; border-radius: 1rem; font-size: 12px; font-weight: 600; line-height: 1.5rem; }
.badge.pass, .badge.passed, .badge.allowed { color: var(--pass); background: var(--pass-bg); }
.badge.fail, .badge.failed { color: var(--fail); background: var(--fail-bg); }
.badge.new, .badge.skipped, .badge.not-run { color: var(--new); background: var(--new-bg); }
.badge.updated, .badge.info { color: var(--info); background: var(--info-bg); }
header.summary { padding: 1rem; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
header.summary .counts { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: .5rem 0; }
header.summary .count strong { font-size: 1.25rem; }
header.summary .seed { font-weight: 600; }
.banner { margin: .75rem 0; padding: .5rem .75rem; border-radius: 6px; border: 1px solid var(--fail); background: var(--fail-bg); }
.controls { margin: .5rem 0 0; display: flex; gap: .5rem; }
.controls button { font: inherit; padding: .15rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); cursor: pointer; }
ul.failures { margin: .25rem 0; padding-left: 1.25rem; }
details.item { margin: .5rem 0; border: 1px solid var(--line); border-left: 4px solid var(--pass); border-radius: 6px; background: var(--bg); }
details.item.failed { border-left-color: var(--fail); }
details.item.new, details.item.not-run { border-left-color: var(--new); }
details.item.updated { border-left-color: var(--info); }
details.item > summary { cursor: pointer; padding: .4rem .75rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
details.item > summary::before { content: '▸'; color: var(--muted); }
details.item[open] > summary::before { content: '▾'; }
details.item > .body { padding: 0 .75rem .75rem; border-top: 1px solid var(--line); }
details.more > summary { cursor: pointer; color: var(--info); margin: .5rem 0 .25rem; }
body.failures-only details.item.passed, body.failures-only section.group.passed { display: none; }
.reproduce { margin: .5rem 0; padding: .35rem .75rem; border-radius: 6px; background: var(--fail-bg); }
.timeline { display: grid; grid-template-columns: minmax(12rem, 30%) 1fr 6rem; gap: 2px .75rem; align-items: center; margin: .25rem 0; }
.timeline .phase { grid-column: 1 / -1; font-weight: 600; color: var(--muted); margin-top: .35rem; }
.timeline .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.timeline .track { position: relative; height: 1rem; background: var(--panel); border-radius: 3px; }
.timeline .bar { position: absolute; top: 0; bottom: 0; min-width: 2px; border-radius: 3px; background: var(--bar); }
.timeline .bar.failed { background: var(--bar-fail); }
.timeline .bar.skipped { background: transparent; border-left: 2px dashed var(--line); }
.timeline .duration { text-align: right; font-variant-numeric: tabular-nums; }
.timeline .note { grid-column: 1 / -1; font-size: 12px; color: var(--muted); padding-left: 1rem; }
table.diff tr.added td.kind, table.patch tr.op-add td.op { color: var(--pass); }
table.diff tr.removed td.kind, table.patch tr.op-remove td.op { color: var(--fail); }
table.diff tr.changed td.kind, table.patch tr.op-replace td.op { color: var(--new); }
table.diff td.before pre { background: var(--fail-bg); }
table.diff td.after pre { background: var(--pass-bg); }
.coverage-webhook { margin: .75rem 0; }
.meter { display: inline-block; width: 10rem; height: .6rem; border-radius: .3rem; background: var(--fail-bg); vertical-align: middle; overflow: hidden; }
.meter > span { display: block; height: 100%; background: var(--pass); }
table.coverage tr.covered td.state { color: var(--pass); font-weight: 600; }
table.coverage tr.uncovered td.state { color: var(--fail); font-weight: 600; }
table.coverage tr.uncovered { background: var(--fail-bg); }
nav.toc ul { columns: 2; margin: .25rem 0; }
`;
