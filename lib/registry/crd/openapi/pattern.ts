/**
 * A schema `pattern` is a Go (RE2) regular expression, matched unanchored (`regexp.MatchString`).
 * The common RE2 spellings JavaScript lacks are translated: leading inline flags `(?i)`/`(?s)`/`(?m)`,
 * named groups `(?P<name>…)`, `\A` and `\z`, `\Q…\E` literals and POSIX classes `[[:alpha:]]`.
 * CRD validation rejects patterns Go cannot compile, so a pattern JavaScript cannot compile either is
 * reported the way kube-openapi reports an invalid pattern.
 */
const POSIX: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, RegExp | string>();

function translate(pattern: string): { source: string; flags: string } {
  let source = pattern;
  let flags = '';
  const inline = /^\(\?([ims]+)\)/.exec(source);
  if (inline) {
    flags = [...new Set(inline[1])].join('');
    source = source.slice(inline[0].length);
  }
  source = source
    .replace(/\\Q(.*?)(?:\\E|$)/g, (_, literal: string) => literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'))
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
    .replace(/\[:(\^?)([a-z]+):\]/g, (whole, negated: string, name: string) => {
      const range = POSIX[name];
      return range === undefined || negated ? whole : range;
    });
  return { source, flags };
}

/** The compiled pattern, or the compile error text. */
export function compilePattern(pattern: string): RegExp | string {
  const cached = cache.get(pattern);
  if (cached !== undefined) return cached;
  const { source, flags } = translate(pattern);
  let compiled: RegExp | string;
  try {
    compiled = new RegExp(source, `${flags}u`);
  } catch {
    try {
      compiled = new RegExp(source, flags);
    } catch (error) {
      compiled = error instanceof Error ? error.message : String(error);
    }
  }
  cache.set(pattern, compiled);
  return compiled;
}
