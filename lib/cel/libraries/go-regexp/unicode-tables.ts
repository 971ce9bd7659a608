/** `\p{...}` names: Go's unicode tables (categories, their aliases, scripts) mapped to JS property escapes (parse.go unicodeTable). */
import { MAX_RUNE, type Range } from './syntax-tree';

// Go's unicode.Categories (short names) and, from Go 1.25, unicode.CategoryAliases.
const CATEGORIES = new Set('C Cc Cf Cn Co Cs L LC Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '));
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Other: 'C',
  Control: 'Cc',
  Format: 'Cf',
  Unassigned: 'Cn',
  Private_Use: 'Co',
  Surrogate: 'Cs',
  Letter: 'L',
  Cased_Letter: 'LC',
  Lowercase_Letter: 'Ll',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Titlecase_Letter: 'Lt',
  Uppercase_Letter: 'Lu',
  Mark: 'M',
  Combining_Mark: 'M',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Nonspacing_Mark: 'Mn',
  Number: 'N',
  Decimal_Number: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Close_Punctuation: 'Pe',
  Final_Punctuation: 'Pf',
  Initial_Punctuation: 'Pi',
  Other_Punctuation: 'Po',
  Open_Punctuation: 'Ps',
  Symbol: 'S',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Math_Symbol: 'Sm',
  Other_Symbol: 'So',
  Separator: 'Z',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Space_Separator: 'Zs',
  cntrl: 'Cc',
  digit: 'Nd',
  punct: 'P',
};
// ISO 15924 codes are four letters; these four-letter names are also the scripts' long names (Go's keys).
const FOUR_LETTER_SCRIPTS = new Set(['Cham', 'Lisu', 'Modi', 'Newa', 'Thai', 'Toto']);

/** parse.go canonicalName: leading capital, the rest lower case, without `_`, `-` and spaces. */
function canonicalName(name: string): string {
  const letters = name.replace(/[_\- ]/g, '');
  return letters.slice(0, 1).toUpperCase() + letters.slice(1).toLowerCase();
}
const CANONICAL_CATEGORIES: ReadonlyMap<string, string> = new Map([
  ...[...CATEGORIES].map((c): [string, string] => [canonicalName(c), c]),
  ...Object.entries(CATEGORY_ALIASES).map(([alias, c]): [string, string] => [canonicalName(alias), c]),
]);

export interface UnicodeTable {
  /** A JS class body for the table, or explicit ranges. */
  body?: string;
  ranges?: Range[];
  /** `Assigned` is the complement of Cn. */
  negate: boolean;
  /** Explicit extra runes for folding, when the table is ASCII (asciiFoldTable). */
  foldRanges?: Range[];
}

function validProperty(body: string): boolean {
  try {
    new RegExp(`[${body}]`, 'u');
    return true;
  } catch {
    return false;
  }
}

/** parse.go unicodeTable. */
export function unicodeTable(name: string): UnicodeTable | undefined {
  if (name === '') return undefined;
  const canonical = canonicalName(name);
  if (canonical === 'Any') return { ranges: [[0, MAX_RUNE]], negate: false };
  if (canonical === 'Assigned') return { body: '\\p{Cn}', negate: true };
  if (canonical === 'Ascii')
    return {
      ranges: [[0, 0x7f]],
      negate: false,
      foldRanges: [
        [0x17f, 0x17f],
        [0x212a, 0x212a],
      ],
    };
  const category = CATEGORIES.has(name) ? name : CANONICAL_CATEGORIES.get(canonical);
  if (category) return { body: `\\p{${category}}`, negate: false };
  // Scripts by their long names (unicode.Scripts keys), as the JS engine knows them.
  for (const candidate of new Set([name, canonical])) {
    if (!/^[A-Z][A-Za-z_]*$/.test(candidate) || (candidate.length === 4 && !FOUR_LETTER_SCRIPTS.has(candidate))) continue;
    const body = `\\p{Script=${candidate}}`;
    if (validProperty(body)) return { body, negate: false };
  }
  return undefined;
}
