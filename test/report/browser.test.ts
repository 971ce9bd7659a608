// The reports in a real browser (Chromium through playwright-core), opened from a file as a user
// would: no console error, no request besides the file itself, the key parts visible, <details> that
// open on a click with scripts on or off, and a screenshot that shows a rendered page.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { htmlFromBattery, htmlFromReplay } from '../../lib/report';
import type { BatteryReport } from '../../lib/battery/battery';
import { brokenBattery, closeAll, hostileBattery, replays, type BatteryRun, type ReplayRuns } from './inputs';

const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 900 };

let browser: Browser;
let dir: string;
let broken: BatteryRun;
let replayed: ReplayRuns;
let hostile: BatteryReport;

beforeAll(async () => {
  // A missing browser is a broken test machine, not a reason to pass: say what to install.
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the report's browser test needs Debian's chromium (apt-get install chromium); CI installs it the same way`);
  }
  dir = mkdtempSync(path.join(os.tmpdir(), 'ah-report-'));
  [browser, broken, replayed, hostile] = await Promise.all([
    chromium.launch({
      executablePath: CHROMIUM,
      // Playwright's own 30 s limits (launch, navigation, actions) are off: Jest's testTimeout is the one limit.
      timeout: 0,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    }),
    brokenBattery(),
    replays(),
    hostileBattery(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await closeAll();
  replayed?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a page did while open: its requests, console errors, uncaught errors and dialogs. */
interface Opened {
  page: Page;
  context: BrowserContext;
  url: string;
  requests: string[];
  errors: string[];
}

/** Writes `document` to a file and opens it from its file:// URL, recording everything the page does. */
async function open(name: string, document: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Opened> {
  const file = path.join(dir, name);
  writeFileSync(file, document);
  const url = pathToFileURL(file).href;
  const context = await browser.newContext({ viewport: VIEWPORT, javaScriptEnabled: options.javaScriptEnabled ?? true });
  context.setDefaultTimeout(0);
  const page = await context.newPage();
  const opened: Opened = { page, context, url, requests: [], errors: [] };
  page.on('request', (request) => opened.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') opened.errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => opened.errors.push(`page error: ${error.message}`));
  // A report's script never opens a dialog; one would mean text from the input ran as script.
  page.on('dialog', (dialog) => {
    opened.errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
  return opened;
}

/** The page asked for nothing but its own file, and logged no error. */
async function expectQuiet(opened: Opened): Promise<void> {
  await opened.context.close();
  expect(opened.errors).toEqual([]);
  expect(opened.requests).toEqual([opened.url]);
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian), after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the battery report in Chromium', () => {
  it('renders the summary, a failing scenario’s timeline, patch table and diff, and the coverage grid', async () => {
    const opened = await open('battery.html', htmlFromBattery(broken.report, { coverage: broken.coverage }));
    const { page } = opened;
    expect(await page.title()).toBe('admission-harness check');
    const header = page.locator('header.summary');
    expect(await header.isVisible()).toBe(true);
    expect(await header.locator('.seed').first().innerText()).toBe('seed 7');
    expect(await header.innerText()).toContain(`${broken.report.failed} checks failed`);

    // Failing scenarios are open: their parts are visible without a click.
    const failing = page.locator('details.item.scenario.failed').first();
    expect(await failing.getAttribute('open')).toBe('');
    expect(await failing.locator('.reproduce').isVisible()).toBe(true);
    const bar = failing.locator('.timeline .bar').first();
    expect(await bar.isVisible()).toBe(true);
    const box = await bar.boundingBox();
    const track = await failing.locator('.timeline .track').first().boundingBox();
    expect(box!.width).toBeGreaterThan(0);
    expect(box!.width).toBeLessThanOrEqual(track!.width + 0.5);
    expect(await failing.locator('table.patch').isVisible()).toBe(true);
    expect(await failing.locator('table.patch td.op').first().innerText()).toBe('add');
    expect(await failing.locator('table.diff').isVisible()).toBe(true);
    expect(await failing.locator('table.diff tr.added td.path').first().innerText()).toContain('zoo-proxy');

    const grid = page.locator('#coverage');
    await grid.scrollIntoViewIfNeeded();
    expect(await grid.locator('table.coverage').first().isVisible()).toBe(true);
    expect(await grid.locator('table.coverage tr.covered').count()).toBe(broken.coverage.webhooks.flatMap((w) => w.cells).filter((c) => c.covered).length);

    const png = await page.screenshot({ fullPage: true });
    const size = pngSize(png);
    expect(size.width).toBe(VIEWPORT.width);
    expect(size.height).toBeGreaterThan(VIEWPORT.height);
    // A blank page compresses to almost nothing; a rendered report does not.
    expect(png.length).toBeGreaterThan(50_000);
    await expectQuiet(opened);
  });

  it('opens a folded scenario when its summary is clicked, and its folded JSON likewise', async () => {
    const opened = await open('battery-click.html', htmlFromBattery(broken.report));
    const { page } = opened;
    const passing = page.locator('details.item.scenario.passed').first();
    const checks = passing.locator('table.checks');
    expect(await passing.getAttribute('open')).toBeNull();
    expect(await checks.isVisible()).toBe(false);
    await passing.locator(':scope > summary').click();
    expect(await passing.getAttribute('open')).toBe('');
    expect(await checks.isVisible()).toBe(true);

    const sent = passing.locator('details.more', { hasText: 'AdmissionReview sent' });
    const json = sent.locator('pre.json');
    expect(await json.isVisible()).toBe(false);
    await sent.locator('summary').click();
    expect(await json.isVisible()).toBe(true);
    expect(await json.innerText()).toContain('"kind": "AdmissionReview"');
    await expectQuiet(opened);
  });

  it('runs its small script: expand all, and failures only', async () => {
    const opened = await open('battery-script.html', htmlFromBattery(broken.report));
    const { page } = opened;
    expect(await page.locator('#controls').isVisible()).toBe(true);
    await page.locator('button[data-action="expand"]').click();
    expect(await page.locator('details.item:not([open])').count()).toBe(0);
    await page.locator('button[data-action="failures"]').click();
    expect(await page.locator('details.item.passed').first().isVisible()).toBe(false);
    expect(await page.locator('details.item.failed').first().isVisible()).toBe(true);
    await expectQuiet(opened);
  });

  it('works with scripts off: no buttons, and <details> still open on a click', async () => {
    const opened = await open('battery-no-script.html', htmlFromBattery(broken.report), { javaScriptEnabled: false });
    const { page } = opened;
    expect(await page.locator('#controls').isVisible()).toBe(false);
    const passing = page.locator('details.item.scenario.passed').first();
    await passing.locator(':scope > summary').click();
    expect(await passing.locator('table.checks').isVisible()).toBe(true);
    await expectQuiet(opened);
  });

  it('shows markup from the request as text and runs none of it', async () => {
    const opened = await open('hostile.html', htmlFromBattery(hostile));
    const { page } = opened;
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    // The mutating webhook's scenario fails (the API refuses a container named so): it is open already.
    const item = page.locator('details.item.scenario.failed').first();
    expect(await item.getAttribute('open')).toBe('');
    const sent = item.locator('details.more', { hasText: 'AdmissionReview sent' });
    await sent.locator('summary').click();
    expect(await sent.locator('pre.json').innerText()).toContain('"note": "<script>alert(\\"label\\")</script>"');
    await expectQuiet(opened);
  });
});

describe('the replay report in Chromium', () => {
  it('shows the failing fixture open with its object diff, recorded → replayed', async () => {
    const opened = await open('replay.html', htmlFromReplay(replayed.failing, { coverage: replayed.coverage }));
    const { page } = opened;
    expect(await page.locator('header.summary').isVisible()).toBe(true);
    const failing = page.locator('#fixture-0');
    expect(await failing.getAttribute('open')).toBe('');
    // The difference from the recording; the call's own diff (request object → patched object) follows it.
    const diff = failing.locator('table.mismatches table.diff');
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.locator('tr.changed td.path').innerText()).toBe('/spec/containers/0/resources/limits/cpu');
    expect(await diff.locator('tr.changed td.before').innerText()).toBe('"500m"');
    expect(await diff.locator('tr.changed td.after').innerText()).toBe('"250m"');
    expect(await failing.locator('.timeline .bar').first().isVisible()).toBe(true);
    expect(await page.locator('#coverage table.coverage').first().isVisible()).toBe(true);
    await expectQuiet(opened);
  });
});
