// docs/cli.md's lint section names every finding id lint reports, and no other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LINT_RULES, REFUSAL_FINDING_IDS } from '../../lib/lint';

const page = readFileSync(path.join(__dirname, '../../docs/cli.md'), 'utf8');
const section = page.slice(page.indexOf('## lint'), page.indexOf('## test'));
const ids = [...LINT_RULES.map((rule) => rule.id), 'policy-type-check', ...REFUSAL_FINDING_IDS];

describe('the lint ids in docs/cli.md', () => {
  it.each(ids)('%s is documented', (id) => {
    expect(section).toContain(`\`${id}\``);
  });

  it('names no id lint does not report', () => {
    // Backticked kebab-case words are ids, but for kube's own field names.
    const named = [...section.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((match) => match[1]);
    expect(named.filter((name) => name !== 'x-kubernetes-validations' && !ids.includes(name!))).toEqual([]);
  });
});
