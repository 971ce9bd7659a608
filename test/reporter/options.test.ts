// The reporter's options are checked when the runner constructs it, before any test runs: each error
// names the option and, for a misspelling, the nearest valid one.
import { HarnessError } from '../../lib/errors';
import { parseReporterOptions } from '../../lib/reporter/options';

describe('parseReporterOptions', () => {
  it.each([
    ['nothing', undefined, {}],
    ['an empty object (Jest and Vitest give one for a reporter named alone)', {}, {}],
    [
      'every option',
      { json: 'out/a.json', html: 'out/a.html', threshold: 80, of: 'total' },
      { json: 'out/a.json', html: 'out/a.html', threshold: 80, of: 'total' },
    ],
    ['the bounds of threshold', { threshold: 0 }, { threshold: 0 }],
    ['a fractional threshold', { threshold: 66.67, of: 'each' }, { threshold: 66.67, of: 'each' }],
  ])('accepts %s', (_, given, parsed) => {
    expect(parseReporterOptions(given)).toEqual(parsed);
  });

  it.each([
    ['a misspelt option, with the nearest name', { treshold: 80 }, 'unknown option "treshold" (did you mean "threshold"?)'],
    ['several unknown options', { jsn: 'a.json', colour: true }, 'unknown options "jsn" (did you mean "json"?), "colour"'],
    ['a threshold above 100', { threshold: 101 }, 'option threshold must be a number from 0 to 100, got 101'],
    ['a negative threshold', { threshold: -1 }, 'option threshold must be a number from 0 to 100, got -1'],
    ['a threshold given as text', { threshold: '80' }, 'option threshold must be a number from 0 to 100, got "80"'],
    ['a threshold that is not a number', { threshold: Number.NaN }, 'option threshold must be a number from 0 to 100, got NaN'],
    ['a misspelt of, with the nearest value', { threshold: 80, of: 'totl' }, 'option of must be "each" or "total", got "totl" (did you mean "total"?)'],
    ['of without a threshold', { of: 'total' }, 'option of is given without threshold'],
    ['an empty json path', { json: '' }, 'option json must be a file path, got ""'],
    ['an html path that is no string', { html: true }, 'option html must be a file path, got true'],
    ['options that are no object', ['threshold', 80], 'options must be an object'],
  ])('refuses %s', (_, given, message) => {
    let error: unknown;
    try {
      parseReporterOptions(given);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('USAGE');
    expect((error as HarnessError).message).toContain(`admission-harness/reporter: ${message}`);
  });

  it('lists the valid options after an unknown one', () => {
    expect(() => parseReporterOptions({ thresold: 80 })).toThrow(/hint: the options are json, html, threshold, of/);
  });
});
