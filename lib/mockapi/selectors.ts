import type { LabelSelectorRequirement } from 'kubernetes-types/meta/v1.js';
import type { KubeObject } from '../kube/admission';
import { compileSelector } from '../kube/label-selector';

/** A list's `labelSelector` or `fieldSelector` that kube-apiserver would refuse; the text is its 400's message. */
export class SelectorSyntaxError extends Error {}

export type ObjectFilter = (object: KubeObject) => boolean;

// ---------------------------------------------------------------------------------------- label selectors

type Token = 'id' | 'in' | 'notin' | '(' | ')' | ',' | '!' | '=' | '==' | '!=' | '>' | '<' | 'end' | 'error';
interface Lexeme {
  token: Token;
  text: string;
}

const SYMBOLS: ReadonlySet<string> = new Set(['=', '==', '!=', '!', '(', ')', ',', '>', '<']);
const isSymbolChar = (c: string): boolean => '=!(),><'.includes(c);
const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** apimachinery's labels Lexer: identifiers run until a symbol or blank; symbols are matched longest first. */
function lex(input: string): Lexeme[] {
  const lexemes: Lexeme[] = [];
  let i = 0;
  for (;;) {
    while (i < input.length && isSpace(input[i] as string)) i++;
    if (i >= input.length) {
      lexemes.push({ token: 'end', text: '' });
      return lexemes;
    }
    const start = i;
    if (isSymbolChar(input[i] as string)) {
      let matched: string | undefined;
      while (i < input.length && isSymbolChar(input[i] as string)) {
        const candidate = input.slice(start, i + 1);
        if (SYMBOLS.has(candidate)) matched = candidate;
        else if (matched !== undefined) break;
        i++;
      }
      if (matched === undefined) lexemes.push({ token: 'error', text: `error expected: keyword found '${input.slice(start, i)}'` });
      else {
        i = start + matched.length;
        lexemes.push({ token: matched as Token, text: matched });
      }
      continue;
    }
    while (i < input.length && !isSymbolChar(input[i] as string) && !isSpace(input[i] as string)) i++;
    const text = input.slice(start, i);
    lexemes.push({ token: text === 'in' || text === 'notin' ? text : 'id', text });
  }
}

type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

/** A recursive-descent parser with the grammar and error texts of apimachinery's `labels.Parse`. */
class LabelParser {
  private position = 0;
  constructor(private readonly lexemes: Lexeme[]) {}

  // In a value position, `in` and `notin` are plain identifiers (`x in (in)`).
  private peek(asValue: boolean): Lexeme {
    const lexeme = this.lexemes[this.position] as Lexeme;
    return asValue && (lexeme.token === 'in' || lexeme.token === 'notin') ? { token: 'id', text: lexeme.text } : lexeme;
  }

  private next(asValue: boolean): Lexeme {
    const lexeme = this.peek(asValue);
    this.position++;
    return lexeme;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, text } = this.peek(true);
      if (token === 'end') return requirements;
      if (token !== 'id' && token !== '!') throw new SelectorSyntaxError(`found '${text}', expected: !, identifier, or 'end of string'`);
      try {
        requirements.push(this.requirement());
      } catch (error) {
        throw new SelectorSyntaxError(`unable to parse requirement: ${(error as Error).message}`);
      }
      const after = this.next(true);
      if (after.token === 'end') return requirements;
      if (after.token !== ',') throw new SelectorSyntaxError(`found '${after.text}', expected: ',' or 'end of string'`);
      const following = this.peek(true);
      if (following.token !== 'id' && following.token !== '!') throw new SelectorSyntaxError(`found '${following.text}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    let first = this.next(true);
    const negated = first.token === '!';
    if (negated) first = this.next(true);
    if (first.token !== 'id') throw new Error(`found '${first.text}', expected: identifier`);
    const key = first.text;
    const lookahead = this.peek(true).token;
    if (negated || lookahead === 'end' || lookahead === ',') return { key, operator: negated ? 'DoesNotExist' : 'Exists', values: [] };
    const operator = this.next(false);
    switch (operator.token) {
      case 'in':
        return { key, operator: 'In', values: this.valueSet() };
      case 'notin':
        return { key, operator: 'NotIn', values: this.valueSet() };
      case '=':
      case '==':
        return { key, operator: 'In', values: [this.exactValue()] };
      case '!=':
        return { key, operator: 'NotIn', values: [this.exactValue()] };
      case '>':
        return { key, operator: 'Gt', values: [this.exactValue()] };
      case '<':
        return { key, operator: 'Lt', values: [this.exactValue()] };
      default:
        throw new Error(`found '${operator.text}', expected: ${BINARY_OPERATORS}`);
    }
  }

  private valueSet(): string[] {
    const open = this.next(true);
    if (open.token !== '(') throw new Error(`found '${open.text}' expected: '('`);
    const first = this.peek(true);
    if (first.token === ')') {
      this.next(true);
      return [''];
    }
    if (first.token !== 'id' && first.token !== ',') throw new Error(`found '${first.text}', expected: ',', ')' or identifier`);
    const values = new Set<string>();
    for (;;) {
      const item = this.next(true);
      if (item.token === 'id') {
        values.add(item.text);
        const after = this.peek(true);
        if (after.token === ')') break;
        if (after.token !== ',') throw new Error(`found '${after.text}', expected: ',' or ')'`);
        continue;
      }
      if (item.token !== ',') throw new Error(`found '${item.text}', expected: ',', or identifier`);
      // Empty values are allowed: `(,a)`, `(a,)` and `(a,,b)` all contain "".
      if (values.size === 0) values.add('');
      const after = this.peek(true);
      if (after.token === ')') {
        values.add('');
        break;
      }
      if (after.token === ',') {
        this.next(true);
        values.add('');
      }
    }
    this.next(true); // the ')' the loop stopped at
    return [...values];
  }

  private exactValue(): string {
    const { token } = this.peek(true);
    if (token === 'end' || token === ',') return '';
    const value = this.next(true);
    if (value.token !== 'id') throw new Error(`found '${value.text}', expected: identifier`);
    return value.text;
  }
}

const INTEGER = /^[+-]?\d+$/;

function numericRequirement(r: Requirement): (labels: Readonly<Record<string, string>>) => boolean {
  const bound = r.values[0] as string;
  if (!INTEGER.test(bound))
    throw new SelectorSyntaxError(
      `unable to parse requirement: values[0]: Invalid value: ${JSON.stringify(bound)}: for 'Gt', 'Lt' operators, the value must be an integer`,
    );
  const limit = BigInt(bound);
  return (labels) => {
    const value = labels[r.key];
    if (value === undefined || !INTEGER.test(value)) return false;
    return r.operator === 'Gt' ? BigInt(value) > limit : BigInt(value) < limit;
  };
}

/**
 * Parses a `labelSelector` query parameter (`app=web,tier in (a,b),!legacy,replicas>1`) into a filter.
 * Set-based requirements are evaluated by the same compiled selector namespaceSelectors use.
 */
export function parseLabelSelector(text: string): ObjectFilter {
  const requirements = new LabelParser(lex(text)).parse();
  const expressions: LabelSelectorRequirement[] = [];
  const numeric: ((labels: Readonly<Record<string, string>>) => boolean)[] = [];
  for (const r of requirements) {
    if (r.operator === 'Gt' || r.operator === 'Lt') numeric.push(numericRequirement(r));
    else expressions.push({ key: r.key, operator: r.operator, ...(r.values.length > 0 ? { values: r.values } : {}) });
  }
  let compiled;
  try {
    compiled = compileSelector({ matchExpressions: expressions });
  } catch (error) {
    throw new SelectorSyntaxError(`unable to parse requirement: ${(error as Error).message}`);
  }
  return (object) => {
    const labels = object.metadata?.labels ?? {};
    return compiled.matches(labels) && numeric.every((holds) => holds(labels));
  };
}

// ---------------------------------------------------------------------------------------- field selectors

const FIELDS: Readonly<Record<string, (object: KubeObject) => string>> = {
  'metadata.name': (object) => object.metadata?.name ?? '',
  'metadata.namespace': (object) => object.metadata?.namespace ?? '',
};

/** Splits on commas that are not escaped (`\,`), as fields.ParseSelector does. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && i + 1 < text.length) {
      current += c + (text[++i] as string);
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else current += c;
  }
  terms.push(current);
  return terms;
}

/**
 * Parses a `fieldSelector` (`metadata.name=x,metadata.namespace!=y`). Like every resource without its own
 * field label conversion, only metadata.name and metadata.namespace are selectable.
 */
export function parseFieldSelector(text: string): ObjectFilter {
  const tests = splitTerms(text)
    .filter((term) => term !== '')
    .map((term) => {
      const match = /^(.*?)(!=|==|=)(.*)$/.exec(term);
      if (!match) throw new SelectorSyntaxError(`invalid selector: '${text}'; can't understand '${term}'`);
      const [, field = '', operator, escaped = ''] = match;
      const read = FIELDS[field];
      if (!read) throw new SelectorSyntaxError(`${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
      const value = escaped.replace(/\\(.)/g, '$1');
      return (object: KubeObject) => (read(object) === value) === (operator !== '!=');
    });
  return (object) => tests.every((holds) => holds(object));
}
