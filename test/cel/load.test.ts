import { compileMatchConditions, loadCel } from '../../lib/cel';
import { HarnessError } from '../../lib/errors';

// Runs in its own module registry, so the library is not loaded yet when the first test runs.
describe('loadCel', () => {
  it('compiling before the library is loaded is a usage error naming the fix', () => {
    const compile = () => compileMatchConditions([{ name: 'a', expression: 'true' }]);
    expect(compile).toThrow(HarnessError);
    expect(compile).toThrow(/await loadCel\(\)/);
  });

  it('after loadCel resolves, compiling is synchronous; loading again is harmless', async () => {
    await loadCel();
    await loadCel();
    expect(compileMatchConditions([{ name: 'a', expression: 'true' }])).not.toHaveProperty('errors');
  });
});
