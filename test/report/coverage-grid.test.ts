// The coverage grid's lists beside the cells: requests sent outside the rules, and requests the
// rules match that something refused before the webhook's turn (escaped like every user text).
import { summarize, type WebhookSummary } from '../../lib/admission-coverage';
import { coverageGrid } from '../../lib/report/coverage-grid';

const webhook = (more: Partial<WebhookSummary>): WebhookSummary => ({
  type: 'validating',
  configuration: 'policy',
  name: 'pods.example.com',
  covered: 0,
  total: 1,
  percent: 0,
  uncovered: ['CREATE pods [Namespaced]'],
  outside: [],
  cells: [
    {
      dimension: 'rule',
      key: 'CREATE pods [Namespaced]',
      operation: 'CREATE',
      group: '',
      resource: 'pods',
      subResource: '',
      scope: 'Namespaced',
      rules: [0],
      covered: false,
    },
  ],
  ...more,
});

it('lists the requests refused before the webhook’s turn, with what refused them', () => {
  const page = String(coverageGrid(summarize([webhook({ unreached: ['CREATE pods [Namespaced]: refused first by ValidatingAdmissionPolicy <no-pods>'] })])));
  expect(page).toContain(
    '<p>Matched by its rules but refused before its turn (not counted):</p><ul><li><code>CREATE pods [Namespaced]: refused first by ValidatingAdmissionPolicy &lt;no-pods&gt;</code></li></ul>',
  );
});

it('says nothing of them when there are none, or the summary predates them', () => {
  expect(String(coverageGrid(summarize([webhook({ unreached: [] })])))).not.toContain('refused before its turn');
  expect(String(coverageGrid(summarize([webhook({})])))).not.toContain('refused before its turn');
});
