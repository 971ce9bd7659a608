// htmlFromBattery on batteries actually run: against the example webhook (all pass), a broken zoo
// webhook (failures with a patch and an object diff), and requests carrying markup in user fields.
import { htmlFromBattery } from '../../lib/report';
import type { BatteryReport } from '../../lib/battery/battery';
import { brokenBattery, closeAll, exampleBattery, hostileBattery, HOSTILE_CONTAINER, HOSTILE_LABEL, SEED, type BatteryRun } from './inputs';
import { countWithClass, externalReferences, stylesheets } from './offline';

let example: BatteryRun;
let broken: BatteryRun;
let hostile: BatteryReport;

beforeAll(async () => {
  [example, broken, hostile] = await Promise.all([exampleBattery(), brokenBattery(), hostileBattery()]);
});
afterAll(closeAll);

/** The markup of each `<details class="item …">`, up to the next one or the end of its group, in document order. */
function items(document: string, kind: 'scenario' | 'policy'): string[] {
  return document
    .split('<details class="item ')
    .slice(1)
    .filter((chunk) => chunk.startsWith(`${kind} `))
    .map((chunk) => chunk.split('</section>')[0]!);
}

const failedChecks = (report: BatteryReport) => [...report.results, ...report.policies].filter((r) => r.checks.some((c) => c.status === 'fail'));

describe('htmlFromBattery: the example webhook, every check passing', () => {
  let page: string;
  beforeAll(() => {
    page = htmlFromBattery(example.report, { coverage: example.coverage });
  });

  it('is one complete HTML5 document', () => {
    expect(page.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(page.trimEnd().endsWith('</html>')).toBe(true);
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain('<title>admission-harness check</title>');
  });

  it('references nothing outside itself: no src, only in-page links, no url() or @import in its styles', () => {
    expect(externalReferences(page)).toEqual([]);
    expect(page).toMatch(/href="#webhook-0"/);
    for (const css of stylesheets(page)) {
      expect(css).not.toMatch(/url\(|@import/);
    }
    // The browser enforces it too: nothing may load, only the report's own script may run.
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page)?.[1]?.replace(/&#39;/g, "'");
    expect(policy).toMatch(/^default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-[A-Za-z0-9+/=]+';/);
  });

  it('counts what the report counts, with the seed', () => {
    const { report } = example;
    expect(report.failed).toBe(0);
    expect(report.passed).toBeGreaterThan(20);
    expect(page).toContain(`<span class="badge passed">${report.passed}</span> checks passed`);
    expect(page).toContain('<strong>0</strong> checks failed');
    expect(page).toContain(`<strong>${report.results.length + report.policies.length}</strong> scenarios run`);
    expect(page).toContain(`<span class="seed">seed ${SEED}</span>`);
    expect(page).toContain('<span class="badge passed">passed</span>');
    expect(page).not.toContain('Failures (');
  });

  it('has one folded section per scenario, grouped by webhook, and one per policy scenario', () => {
    expect(items(page, 'scenario')).toHaveLength(example.report.results.length);
    expect(items(page, 'policy')).toHaveLength(example.report.policies.length);
    expect(example.report.policies.length).toBeGreaterThan(0);
    expect(items(page, 'scenario').every((item) => item.startsWith('scenario passed" id="scenario-') && !/^[^>]*\sopen>/.test(item))).toBe(true);
    expect(page).toContain('pod-defaults.example.com <span class="muted">(mutating)</span>');
    expect(page).toContain('image-policy.example.com <span class="muted">(validating)</span>');
  });

  it('shows each call: a timeline bar, the request summary with the seed, the patch table and the object diff', () => {
    const mutating = items(page, 'scenario').find((item) => item.includes('pod-defaults/pod-defaults.example.com') && item.includes('<table class="patch">'));
    expect(mutating).toBeDefined();
    expect(mutating).toMatch(/<span class="bar passed" style="left: 0%; width: [\d.]+%"><\/span>/);
    expect(mutating).toContain(`seed ${SEED} (replay: ADMISSION_HARNESS_SEED=${SEED})`);
    expect(mutating).toContain('<table class="diff">');
    expect(mutating).toContain('<summary>AdmissionReview sent</summary>');
    // The base64 of the patch is left out unless verbose: the table shows it decoded.
    expect(mutating).toContain('characters of base64: decoded in the patch table');
  });

  it('shows the policies’ traces as timelines and as text', () => {
    const policy = items(page, 'policy').find((item) => item.includes('ValidatingAdmissionPolicy guarded with binding guarded-binding'))!;
    expect(policy).toContain('<div class="phase">validating admission policies</div>');
    expect(policy).toContain('ValidatingAdmissionPolicy guarded with binding guarded-binding');
    expect(policy).toContain('<summary>Trace as text</summary>');
    const mutating = items(page, 'policy').find((item) => item.includes('MutatingAdmissionPolicy add-team'))!;
    expect(mutating).toMatch(/<span class="muted">mutated<\/span>/);
    expect(mutating).toContain('<summary>Object after the policy</summary>');
    expect(mutating).toContain('&quot;team&quot;: &quot;payments&quot;');
  });

  it('ends with the coverage grid: per webhook its percent and every cell, covered or not', () => {
    const { coverage } = example;
    expect(page).toContain('<section class="coverage-grid" id="coverage">');
    for (const webhook of coverage.webhooks)
      expect(page).toContain(`<h3>${webhook.type} ${webhook.configuration}/${webhook.name}</h3><p><strong>${webhook.percent.toFixed(2)} %</strong>`);
    const cells = coverage.webhooks.flatMap((w) => w.cells);
    expect(countWithClass(page, 'covered') + countWithClass(page, 'uncovered')).toBe(cells.length);
    expect(countWithClass(page, 'uncovered')).toBe(cells.filter((c) => !c.covered).length);
  });

  it('writes the same bytes for the same input, and a time only when given one', () => {
    expect(htmlFromBattery(example.report, { coverage: example.coverage })).toBe(page);
    expect(page).not.toContain('Generated at');
    expect(htmlFromBattery(example.report, { generatedAt: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)) })).toContain('Generated at 2025-01-02T03:04:05.000Z.');
  });

  it('takes a title, escaped like everything else', () => {
    const titled = htmlFromBattery(example.report, { title: 'pods <prod>' });
    expect(titled).toContain('<title>pods &lt;prod&gt;</title>');
    expect(titled).toContain('<h1>pods &lt;prod&gt;</h1>');
  });

  it('shows the patch as its base64 and the reply body when verbose', () => {
    const verbose = htmlFromBattery(example.report, { verbose: true });
    const patched = example.report.results.find((r) => r.outcome.response?.patch)!;
    expect(verbose).toContain(`&quot;patch&quot;: &quot;${patched.outcome.response!.patch}&quot;`);
    expect(verbose).toContain('<summary>Reply body as received</summary>');
    expect(page).not.toContain(patched.outcome.response!.patch!);
  });
});

describe('htmlFromBattery: a broken webhook', () => {
  let page: string;
  beforeAll(() => {
    page = htmlFromBattery(broken.report, { coverage: broken.coverage });
  });

  it('counts the failures and lists each, linked to its section', () => {
    const { report } = broken;
    expect(report.failed).toBeGreaterThan(0);
    expect(page).toContain(`<span class="badge failed">${report.failed}</span> checks failed`);
    expect(page).toContain('<span class="badge failed">failed</span>');
    const failing = failedChecks(report);
    expect(page).toContain(`<h2 class="failures-title">Failures (${failing.length})</h2>`);
    const links = [...page.matchAll(/<ul class="failures">([\s\S]*?)<\/ul>/g)].flatMap((m) => [...m[1]!.matchAll(/href="#([^"]+)"/g)].map((l) => l[1]!));
    expect(links).toHaveLength(failing.length);
    for (const anchor of links) expect(page).toContain(` id="${anchor}" open>`);
  });

  it('shows the seed in every failing scenario, with how to repeat the run', () => {
    const failing = [...items(page, 'scenario'), ...items(page, 'policy')].filter((item) => /^\w+ failed"/.test(item));
    expect(failing).toHaveLength(failedChecks(broken.report).length);
    for (const item of failing) {
      expect(item).toContain(`Failed with seed <strong class="seed">${SEED}</strong>`);
      expect(item).toContain(`admission-harness check … --seed ${SEED}`);
    }
  });

  it('shows the failing check’s detail, the patch table and the object diff of the sidecar it appended', () => {
    const scenario = items(page, 'scenario').find((item) => item.startsWith('scenario failed'))!;
    expect(scenario).toMatch(
      /<td><span class="badge failed">fail<\/span><\/td><td class="check"><code>idempotent-reinvocation<\/code><\/td><td><pre class="wrap">reinvoked with its own output/,
    );
    expect(scenario).toContain(
      '<tr class="op-add"><td class="index">0</td><td class="op"><code>add</code></td><td class="path"><code>/spec/containers/-</code></td>',
    );
    expect(scenario).toMatch(/<tr class="added"><td class="kind">added<\/td><td class="path"><code>\/spec\/containers\/\d+ \(zoo-proxy\)<\/code><\/td>/);
    expect(scenario).toContain('request object → patched object');
  });

  it('shows a failing policy with its errors and its trace', () => {
    const policy = items(page, 'policy').find((item) => item.startsWith('policy failed'))!;
    expect(policy).toContain('policy-evaluates');
    expect(policy).toContain('no such key: spec');
    expect(policy).toContain('<div class="phase">validating admission policies</div>');
  });

  it('still references nothing outside itself', () => {
    expect(externalReferences(page)).toEqual([]);
  });
});

describe('htmlFromBattery: markup in what the user sent', () => {
  let page: string;
  beforeAll(() => {
    page = htmlFromBattery(hostile);
  });

  it('ran real scenarios with the hostile pod', () => {
    expect(hostile.results.map((r) => r.webhook).sort()).toEqual(['image-policy.example.com', 'pod-defaults.example.com']);
    expect(hostile.results[0]!.outcome.review.request!.object!.metadata!.labels).toEqual({ note: HOSTILE_LABEL });
  });

  it('prints a <script> label value and an <img> container name as text, never as markup', () => {
    expect(page).toContain('&lt;script&gt;alert(\\&quot;label\\&quot;)&lt;/script&gt;');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page).not.toContain(HOSTILE_LABEL);
    expect(page).not.toContain(HOSTILE_CONTAINER);
    // The document's one script is its own.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(externalReferences(page)).toEqual([]);
  });
});
