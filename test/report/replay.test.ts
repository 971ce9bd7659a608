// htmlFromReplay on fixtures recorded from the example webhook and replayed: against a webhook whose
// patch changed (failures with the object diff, recorded → replayed), and against the example itself.
import { htmlFromReplay } from '../../lib/report';
import { closeAll, replays, SEED, type ReplayRuns } from './inputs';
import { externalReferences } from './offline';

let runs: ReplayRuns;
beforeAll(async () => {
  runs = await replays();
});
afterAll(async () => {
  await closeAll();
  runs.remove();
});

function fixtures(document: string): string[] {
  return document.split('<details class="item fixture ').slice(1);
}

describe('htmlFromReplay: a changed webhook', () => {
  let page: string;
  beforeAll(() => {
    page = htmlFromReplay(runs.failing, { coverage: runs.coverage });
  });

  it('replayed real recordings: two fail on the changed CPU limit, one had no response to compare', () => {
    expect(runs.failing.results.map((r) => r.verdict)).toEqual(['failed', 'failed', 'new']);
  });

  it('counts fixtures by verdict and links each failure', () => {
    expect(page).toContain('<title>admission-harness replay</title>');
    expect(page).toContain('<strong>3</strong> fixtures');
    expect(page).toContain('<span class="badge failed">2</span> failed');
    expect(page).toContain('<span class="badge new">1</span> new');
    expect(page).toContain('<strong>0</strong> passed');
    expect(page).toContain('<h2 class="failures-title">Failures (2)</h2>');
    expect(page).toContain('<li><a href="#fixture-0">pods-create-1.yaml · CREATE pods shop/web-1</a></li>');
  });

  it('shows the seed in each failing fixture, and the object diff recorded → replayed', () => {
    const [first, second, fresh] = fixtures(page);
    for (const failed of [first!, second!]) {
      expect(failed.startsWith('failed" id="fixture-')).toBe(true);
      expect(failed).toContain(`Failed with seed <strong class="seed">${SEED}</strong>: repeat it with <code>admission-harness replay … --seed ${SEED}</code>`);
      expect(failed).toContain('<th>recorded</th><th>replayed</th>');
      expect(failed).toContain(
        '<tr class="changed"><td class="kind">changed</td><td class="path"><code>/spec/containers/0/resources/limits/cpu</code></td><td class="before"><code>&quot;500m&quot;</code></td><td class="after"><code>&quot;250m&quot;</code></td></tr>',
      );
      expect(failed).toContain('<summary>Recorded patch</summary><table class="patch">');
      expect(failed).toContain('<summary>Recorded response</summary>');
    }
    expect(fresh!.startsWith('new" id="fixture-2">')).toBe(true);
    expect(fresh).toContain('No response is recorded: the answer was not compared');
    expect(fresh).not.toContain('Failed with seed');
  });

  it('shows the follow-up checks, the call’s timeline and the call', () => {
    const [first] = fixtures(page);
    expect(first).toContain('<code>object-valid</code>');
    expect(first).toContain('<code>idempotent-reinvocation</code>');
    expect(first).toMatch(/<div class="phase">mutating webhook call<\/div><div class="label" title="pod-defaults\/pod-defaults.example.com">/);
    expect(first).toContain(`seed ${SEED} (replay: ADMISSION_HARNESS_SEED=${SEED})`);
  });

  it('includes the coverage grid and references nothing outside itself', () => {
    expect(page).toContain('<section class="coverage-grid" id="coverage">');
    expect(page).toContain('<li><a href="#coverage">Admission coverage</a></li>');
    expect(externalReferences(page)).toEqual([]);
  });

  it('writes the same bytes for the same input', () => {
    expect(htmlFromReplay(runs.failing, { coverage: runs.coverage })).toBe(page);
  });
});

describe('htmlFromReplay: the example itself', () => {
  it('passes every fixture, folded, with no failure section', () => {
    const page = htmlFromReplay(runs.passing);
    expect(runs.passing.results.map((r) => r.verdict)).toEqual(['passed', 'passed']);
    expect(page).toContain('<span class="badge passed">passed</span>');
    expect(page).toContain('<span class="badge passed">2</span> passed');
    expect(page).not.toContain('Failures (');
    expect(fixtures(page).every((f) => f.startsWith('passed" id="fixture-') && /^[^>]*">/.test(f))).toBe(true);
    // The denial recorded and replayed alike: its status is shown.
    expect(page).toContain('403');
  });
});
