import type { BackendBatteryReport, BackendScenarioResult } from '../battery/backend/report';
import { badge, verdictOf } from './badge';
import { checksTable, rowsOfChecks } from './checks-table';
import { generatedAt, htmlDocument, type DocumentOptions } from './document';
import { html, type Html } from './html';
import { summaryHeader, type InPageLink } from './summary-header';
import { milliseconds } from './units';

const failed = (result: BackendScenarioResult) => result.checks.some((c) => c.status === 'fail');

const KIND_WORDS: Readonly<Record<BackendBatteryReport['kind'], string>> = {
  ImagePolicyWebhook: 'ImagePolicyWebhook backend',
  conversion: 'conversion webhook',
};

/** A backend battery's scenarios (an ImagePolicyWebhook backend's, a conversion webhook's) as report sections, with their links. */
export function backendSections(report: BackendBatteryReport, prefix: string): { body: Html; sections: InPageLink[]; failures: InPageLink[] } {
  const anchor = (i: number) => `${prefix}-scenario-${i}`;
  const subjects = [...new Set(report.results.map((r) => r.subject))];
  const groups = subjects.map((subject, g) => {
    const items = report.results.map((result, index) => ({ result, index })).filter(({ result }) => result.subject === subject);
    const groupFailed = items.some(({ result }) => failed(result));
    const scenarios = items.map(({ result, index }) => {
      const isFailed = failed(result);
      const verdict = verdictOf(!isFailed);
      return html`<details class="item scenario ${verdict}" id="${anchor(index)}"${isFailed ? html` open` : ''}><summary>${badge(verdict)} <strong>${result.scenario}</strong> <span class="muted">${result.verdict} · ${milliseconds(result.durationMs)}</span></summary><div class="body"><h4>Checks</h4>${checksTable(rowsOfChecks(result.checks))}<h4>Sent and answered</h4><pre class="wrap">${result.details.join('\n')}</pre></div></details>`;
    });
    return html`<section class="group ${verdictOf(!groupFailed)}" id="${prefix}-${g}"><h2>${subject} <span class="muted">(${KIND_WORDS[report.kind]})</span></h2>${scenarios}</section>`;
  });
  const notes =
    report.notes.length > 0 ? html`<section id="${prefix}-notes"><h2>Notes</h2><ul>${report.notes.map((n) => html`<li>${n}</li>`)}</ul></section>` : '';
  return {
    body: html`${groups}${notes}`,
    sections: subjects.map((subject, g) => ({ anchor: `${prefix}-${g}`, text: `${subject} (${KIND_WORDS[report.kind]})` })),
    failures: report.results.flatMap((r, i) =>
      failed(r)
        ? [
            {
              anchor: anchor(i),
              text: `${r.subject} · ${r.scenario}: ${r.checks
                .filter((c) => c.status === 'fail')
                .map((c) => c.id)
                .join(', ')}`,
            },
          ]
        : [],
    ),
  };
}

/** A backend battery's report (`check --image-policy-config --html`, `check --manifests crd.yaml --html`) as one self-contained page. */
export function htmlFromBackendBattery(report: BackendBatteryReport, options: DocumentOptions = {}): string {
  const title = options.title ?? `admission-harness check · ${KIND_WORDS[report.kind]}`;
  const { body, sections, failures } = backendSections(report, report.kind === 'conversion' ? 'conversion' : 'image-policy');
  const header = summaryHeader({
    title,
    verdict: report.failed > 0 ? 'failed' : 'passed',
    counts: [
      { value: report.results.length, label: `scenario${report.results.length === 1 ? '' : 's'} run` },
      { value: report.passed, label: 'checks passed', verdict: 'passed' },
      { value: report.failed, label: 'checks failed', verdict: 'failed' },
    ],
    seed: report.seed,
    reproduce: `admission-harness check … --seed ${report.seed}`,
    failures,
    sections,
    ...generatedAt(options),
  });
  return htmlDocument(title, html`${header}${body}`);
}
