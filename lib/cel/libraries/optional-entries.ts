import type { ASTNode } from '@marcbachmann/cel-js';
import { CelFunctionError, checkerTypeName } from '../errors';
import { celModule } from '../runtime';
import { goFormatG } from '../../go/format-float';
import { isUint } from './cel-values';
import { type Checker, type Evaluator, runSync, type TypeDecl } from './macro';

/*
 * Optional entries in list and map literals, as cel-go parses, checks and runs them with optional types
 * on (kube's base environment enables them in every context): `[a, ?b]` keeps b's value only when the
 * optional b has one, `{?'k': v}` holds 'k' only when the optional v has a value (parser/parser.go
 * `VisitListInit` / `VisitMapInitializerList`, checker/checker.go `checkCreateList` / `checkCreateMap`,
 * interpreter/interpretable.go `evalList` / `evalMap`).
 *
 * cel-js 8 reads a list element and a map key with `parseExpression`, which has no `?` prefix. Its
 * Parser class is not exported, but its instances reach a macro handler, so the prototype is taken
 * from a probe parse once, and three public methods are wrapped:
 *  - `parseList` opens a frame in which the next `parseExpression` call starts an element: a leading
 *    `?` there is consumed and the element recorded as optional (nested expressions see no frame, so
 *    `[(?a)]` stays a syntax error);
 *  - `parseProperty` consumes a leading `?` before a map key and records the entry as optional;
 *  - `parseMap` and `parseList` then give a literal with optional entries a macro meta: its typeCheck
 *    requires each optional entry to be an optional (cel-go's error and position otherwise) and joins
 *    the types they hold by cel-js's own rule for literals (homogeneous aggregate literals, as kube has
 *    them); its evaluate leaves absent entries out. The node keeps its op (`list`, `map`) and its
 *    entries, so the cost tracker (10 a list, 30 a map, plus the entries), the static estimate and
 *    every AST walk see what cel-go charges and walks, and positions are the parser's own.
 * This is sturdier than rewriting the source before parsing (as the message constructions of
 * lib/policy/mutating/object-literals.ts are): no second lexer, no position mapping, and it applies to
 * every Environment, whatever compiles it. Without optional types the methods behave as cel-js's (a
 * `?` entry is a parse error, which cel-go words `unsupported syntax '?'`; kube never turns them off).
 */

/** cel-js's Parser, as far as the wrappers use it (lib/parser.js of @marcbachmann/cel-js 8). */
interface Parser {
  /** The start of the current token. */
  pos: number;
  /** The current token's type. */
  type: number;
  input: string;
  registry: { enableOptionalTypes?: boolean };
  consume(type: number): number;
  parseExpression(): ASTNode;
  parseList(): ASTNode;
  parseMap(): ASTNode;
  parseProperty(): [ASTNode, ASTNode];
}

/** cel-js's ASTNode members the literal macros use (not in its typings). */
interface Node {
  readonly meta: { readonly macro?: { readonly optionalEntries?: readonly boolean[] } };
  setMeta(key: string, value: unknown): Node;
}

/** cel-js's type declarations and checker, as far as its rule for literal elements uses them (lib/registry.js, operators.js). */
interface Type extends TypeDecl {
  readonly valueType?: Type;
  isEmpty(): boolean;
  unify(registry: unknown, other: Type): Type | null;
}
interface LiteralChecker extends Checker {
  readonly opts: { readonly homogeneousAggregateLiterals?: boolean };
  readonly registry: { getListType(element: Type): Type; getMapType(key: Type, value: Type): Type };
  formatType(type: Type): string;
}
type ElementCode = 'heterogeneous_list_element' | 'heterogeneous_map_key' | 'heterogeneous_map_value';

/** The list being parsed: whether its next `parseExpression` starts an element, and its optional ones. */
interface ListFrame {
  atElement: boolean;
  readonly optional: Set<ASTNode>;
}

const openLists = new WeakMap<Parser, ListFrame | undefined>();
/** Map entries (`[key, value]`) written with a leading `?`. */
const optionalMapEntries = new WeakSet<object>();
const INSTALLED = Symbol.for('admission-harness.optionalEntries');
let installed = false;

/** Which entries of a list or map literal node are optional (`?`), or undefined when none is. */
export function optionalEntries(node: ASTNode): readonly boolean[] | undefined {
  return (node as unknown as Node).meta?.macro?.optionalEntries;
}

/** Makes cel-js's parser read optional entries. Once per loaded cel-js; later calls do nothing. */
export function installOptionalEntries(): void {
  if (installed) return;
  installed = true;
  const prototype = parserPrototype() as Parser & { [INSTALLED]?: true };
  // Another copy of this module may have wrapped the same cel-js already.
  if (prototype[INSTALLED]) return;
  prototype[INSTALLED] = true;
  const { parseExpression, parseList, parseMap, parseProperty } = prototype;
  const optionalSyntax = (parser: Parser) => parser.registry.enableOptionalTypes === true;
  const atQuestion = (parser: Parser) => parser.input[parser.pos] === '?';

  prototype.parseExpression = function parseExpressionOrElement(this: Parser): ASTNode {
    const frame = openLists.get(this);
    if (!frame?.atElement) return parseExpression.call(this);
    frame.atElement = false;
    try {
      if (!atQuestion(this)) return parseExpression.call(this);
      this.consume(this.type);
      const element = parseExpression.call(this);
      frame.optional.add(element);
      return element;
    } finally {
      frame.atElement = true;
    }
  };
  prototype.parseList = function parseListWithOptionals(this: Parser): ASTNode {
    if (!optionalSyntax(this)) return parseList.call(this);
    const outer = openLists.get(this);
    const frame: ListFrame = { atElement: true, optional: new Set() };
    openLists.set(this, frame);
    let node: ASTNode;
    try {
      node = parseList.call(this);
    } finally {
      openLists.set(this, outer);
    }
    if (frame.optional.size === 0) return node;
    return markOptional(
      node,
      (node.args as ASTNode[]).map((element) => frame.optional.has(element)),
    );
  };
  prototype.parseProperty = function parsePropertyOrOptional(this: Parser): [ASTNode, ASTNode] {
    if (!optionalSyntax(this) || !atQuestion(this)) return parseProperty.call(this);
    this.consume(this.type);
    const entry = parseProperty.call(this);
    optionalMapEntries.add(entry);
    return entry;
  };
  prototype.parseMap = function parseMapWithOptionals(this: Parser): ASTNode {
    const node = parseMap.call(this);
    const flags = (node.args as [ASTNode, ASTNode][]).map((entry) => optionalMapEntries.has(entry));
    return flags.includes(true) ? markOptional(node, flags) : node;
  };
}

/** The Parser prototype, from the parser a probe macro is handed (cel-js exports neither). */
function parserPrototype(): Parser {
  const { Environment } = celModule();
  let parser: object | undefined;
  const probe = new Environment().registerFunction('optionalEntriesProbe(ast): bool', ({ parser: instance }: { parser: object }) => {
    parser = instance;
    return { typeCheck: () => undefined, evaluate: () => true };
  });
  probe.parse('optionalEntriesProbe(x)');
  if (!parser) throw new Error('cel-js did not hand its parser to a macro');
  return Object.getPrototypeOf(parser) as Parser;
}

/** Gives a list or map literal with optional entries the checks and evaluation cel-go has for them. */
function markOptional(literal: ASTNode, flags: readonly boolean[]): ASTNode {
  const isList = literal.op === 'list';
  const macro = {
    optionalEntries: flags,
    async: false,
    typeCheck(checker: LiteralChecker, _macro: unknown, ctx: unknown): TypeDecl {
      const entryType = (entry: ASTNode, i: number) => (flags[i] ? checkOptionalEntry(checker, entry, ctx) : checker.check(entry, ctx)) as Type;
      if (isList) {
        const elements = new JoinedType(checker, 'heterogeneous_list_element');
        (literal.args as ASTNode[]).forEach((element, i) => elements.add(entryType(element, i), element));
        return checker.registry.getListType(elements.result());
      }
      const keys = new JoinedType(checker, 'heterogeneous_map_key');
      const values = new JoinedType(checker, 'heterogeneous_map_value');
      (literal.args as [ASTNode, ASTNode][]).forEach(([key, value], i) => {
        keys.add(checker.check(key, ctx) as Type, key);
        values.add(entryType(value, i), value);
      });
      return checker.registry.getMapType(keys.result(), values.result());
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): unknown {
      const run = (entry: ASTNode) => runSync(evaluator, entry, ctx);
      return isList ? evaluateList(literal, flags, run) : evaluateMap(literal, flags, run);
    },
  };
  (literal as unknown as Node).setMeta('macro', macro).setMeta('async', false);
  return literal;
}

/**
 * The element (key, value) type of a literal by cel-js's rule for literals without optional entries
 * (operators.js `checkElementHomogenous` with homogeneous aggregate literals, as kube has them, else
 * `checkElement`), in cel-go's words. The free type an empty optional holds (`optional.none()`)
 * takes the others' type, as cel-go's checker binds a type variable (checker.go `joinTypes`).
 */
class JoinedType {
  private joined: Type | undefined;
  private free: Type | undefined;

  constructor(
    private readonly checker: LiteralChecker,
    private readonly code: ElementCode,
  ) {}

  add(type: Type, node: ASTNode): void {
    const expected = this.joined;
    if (type.kind === 'param') this.free ??= type;
    else if (expected === undefined) this.joined = type;
    else if (!this.checker.opts.homogeneousAggregateLiterals)
      this.joined = expected.unify(this.checker.registry, type) ?? (this.checker.getType('dyn') as Type);
    else if (type === expected || expected.isEmpty()) this.joined = type;
    else if (!type.isEmpty()) {
      const name = (t: Type) => checkerTypeName(this.checker.formatType(t));
      throw this.checker.createError(this.code, `expected type '${name(expected)}' but found '${name(type)}'`, node);
    }
  }

  result(): Type {
    return (this.joined ?? this.free) as Type;
  }
}

/**
 * checker.go `checkCreateList` / `checkCreateMap`: an optional entry must be an optional (or dyn); the
 * literal holds the type the optional wraps.
 */
export function checkOptionalEntry(checker: Checker, entry: ASTNode, ctx: unknown): TypeDecl {
  const type = checker.check(entry, ctx) as TypeDecl & { valueType?: TypeDecl };
  if (type.kind === 'optional' && type.valueType) return type.valueType;
  if (type.kind === 'dyn') return type;
  const found = checkerTypeName(type.name);
  throw checker.createError('optional_entry_type', `expected type 'optional_type(${found})' but found '${found}'`, entry);
}

interface OptionalValue {
  hasValue(): boolean;
  value(): unknown;
}

/** An optional entry's value: what it holds, or `absent`; a value that is no optional is cel-go's error. */
function unwrapEntry(value: unknown, notOptional: () => string): { value: unknown } | 'absent' {
  if (!(value instanceof celModule().Optional)) throw new CelFunctionError(notOptional());
  const optional = value as OptionalValue;
  return optional.hasValue() ? { value: optional.value() } : 'absent';
}

/** interpretable.go `evalList`: elements in order; an optional one is left out when empty. */
export function evaluateList(node: ASTNode, flags: readonly boolean[], run: (entry: ASTNode) => unknown): unknown[] {
  const values: unknown[] = [];
  (node.args as ASTNode[]).forEach((element, i) => {
    const value = run(element);
    if (!flags[i]) {
      values.push(value);
      return;
    }
    const entry = unwrapEntry(value, () => `cannot initialize optional list element from non-optional value ${goValueText(value)}`);
    if (entry !== 'absent') values.push(entry.value);
  });
  return values;
}

/**
 * interpretable.go `evalMap`: entries in order, a later key replacing an earlier one; an empty optional
 * removes its key. The map is built as cel-js builds a map literal (a plain object, which never holds
 * `__proto__`, `constructor` or `prototype`); `into` builds another kind of map.
 */
export function evaluateMap(node: ASTNode, flags: readonly boolean[], run: (entry: ASTNode) => unknown, into: MapBuilder = plainObjectMap()): unknown {
  (node.args as [ASTNode, ASTNode][]).forEach(([keyNode, valueNode], i) => {
    const key = run(keyNode);
    const value = run(valueNode);
    if (!flags[i]) {
      into.set(key, value);
      return;
    }
    const entry = unwrapEntry(value, () => `cannot initialize optional entry '${goValueText(key)}' from non-optional value ${goValueText(value)}`);
    if (entry === 'absent') into.delete(key);
    else into.set(key, entry.value);
  });
  return into.result();
}

export interface MapBuilder {
  set(key: unknown, value: unknown): void;
  delete(key: unknown): void;
  result(): unknown;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function plainObjectMap(): MapBuilder {
  const map: Record<string, unknown> = {};
  return {
    set: (key, value) => {
      if (!UNSAFE_KEYS.has(String(key))) map[String(key)] = value;
    },
    delete: (key) => {
      if (!UNSAFE_KEYS.has(String(key))) delete map[String(key)];
    },
    result: () => map,
  };
}

/**
 * Go's `%v` of a CEL value in cel-go's error texts, exact for scalars and bytes. cel-go prints a list or
 * map value's internal Go structure (pointers included), which is not reproduced: they print here as
 * Go prints a slice or map of their elements.
 */
function goValueText(value: unknown): string {
  if (value === null) return 'NULL_VALUE';
  if (typeof value === 'number') return goFormatG(value);
  if (isUint(value)) return String((value as { value: bigint }).value);
  if (value instanceof Uint8Array) return `[${[...value].join(' ')}]`;
  if (Array.isArray(value)) return `[${value.map(goValueText).join(' ')}]`;
  if (value instanceof Map) return `map[${[...value].map(([k, v]) => `${goValueText(k)}:${goValueText(v)}`).join(' ')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return `map[${Object.entries(value)
      .map(([k, v]) => `${k}:${goValueText(v)}`)
      .join(' ')}]`;
  }
  return String(value);
}
