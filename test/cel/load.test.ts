import { compileMatchConditions, loadCel } from '../../lib/cel';
import { goRegexpError } from '../../lib/cel/libraries/go-regexp';
import { HarnessError } from '../../lib/errors';

// Runs in its own module registry, so the library is not loaded yet when the first test runs.
describe('loadCel', () => {
  it('compiling before the library is loaded is a usage error naming the fix', () => {
    const compile = () => compileMatchConditions([{ name: 'a', expression: 'true' }]);
    expect(compile).toThrow(HarnessError);
    expect(compile).toThrow(/await loadCel\(\)/);
    // The regular expression engine (re2js) is loaded with it, not when the harness is imported.
    expect(() => goRegexpError('a')).toThrow(/await loadCel\(\)/);
  });

  it('after loadCel resolves, compiling is synchronous; loading again is harmless', async () => {
    await loadCel();
    await loadCel();
    expect(compileMatchConditions([{ name: 'a', expression: 'true' }])).not.toHaveProperty('errors');
    expect(compileMatchConditions([{ name: 'a', expression: "'ab'.matches('b\\\\z')" }])).not.toHaveProperty('errors');
    expect(goRegexpError('(')).toBe('error parsing regexp: missing closing ): `(`');
  });
});
