import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from '../errors';
import { goTypeName, runSync, type Checker, type Evaluator, type MacroInput, type TypeDecl } from './macro';
import { registerNamespace } from './namespace';
import { checkOptionalEntry, evaluateList, evaluateMap, optionalEntries } from './optional-entries';
import { FormatError } from './string-format-clauses';
import { validateFormat } from './string-format-validator';
import { formatString } from './string-format-values';

/*
 * cel-go ext.Strings at the version kube enables (pkg/cel/environment/base.go: StringsVersion(2) from
 * 1.29), for the functions cel-js lacks: `format` and `strings.quote` (version 1). charAt and replace are
 * in lib/cel/library.ts; cel-js has the rest (indexOf, lastIndexOf, lowerAscii, upperAscii, split,
 * substring, trim, join), and each checked call of those but join runs cel-go's (go-strings.ts).
 * `reverse` is version 3, which kube does not enable, so it is not declared.
 *
 * `format` follows ext/formatting.go (the version 1 formatter, localised for en_US), including its static
 * validation of a literal format string against a list literal (stringFormatValidator), and the exemption
 * of the list literals inside a format call from the homogeneous-literal check.
 */

export function registerStrings(env: Environment): void {
  registerNamespace(env, 'strings');
  env
    .registerFunction('strings.quote(string): string', (_: unknown, s: string) => quote(s), { async: false })
    // A macro, so that its list argument may mix element types as cel-go's validator allows.
    .registerFunction('string.format(ast): string', formatMacro);
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/**
 * strings.go quote: double quotes around the string, the CEL escape sequences written out; every other
 * rune is kept as it is (unlike Go's %q), invalid UTF-8 becoming U+FFFD.
 */
function quote(s: string): string {
  return `"${s.replace(/[\x07\b\f\n\r\t\v\\"]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => QUOTE_ESCAPES[c] ?? '\ufffd')}"`;
}

function formatMacro({ ast, args, receiver }: MacroInput) {
  const arg = args[0] as ASTNode;
  return {
    async: false,
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      const noOverload = (found: string) => checker.createError('no_matching_overload', `found no matching overload for '${found}'`, ast);
      if (!receiver) throw noOverload('format');
      const receiverType = checker.check(receiver, ctx);
      const argTypes = new Map<ASTNode, TypeDecl>();
      const argType = checkExempt(checker, arg, ctx, argTypes);
      if (!(receiverType.kind === 'dyn' || receiverType.name === 'string') || !(argType.kind === 'dyn' || argType.kind === 'list')) {
        throw noOverload(`${receiverType.name}.format(${argType.name})`);
      }
      if (receiver.op === 'value' && typeof receiver.args === 'string' && arg.op === 'list') {
        validateFormat(
          receiver.args,
          arg.args,
          (node) => argTypes.get(node) ?? checker.check(node, ctx),
          (message, node) => {
            throw checker.createError('invalid_argument', message, node ?? ast);
          },
        );
      }
      return checker.getType('string');
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): string {
      const format = runSync(evaluator, receiver as ASTNode, ctx);
      const list = evaluateExempt(evaluator, arg, ctx);
      if (typeof format !== 'string' || !(Array.isArray(list) || list instanceof Set)) throw new CelFunctionError('no such overload');
      try {
        return formatString(format, [...list], (value) => goTypeName(evaluator.debugType(value)));
      } catch (error) {
        if (error instanceof FormatError) throw new CelFunctionError(error.message);
        throw error;
      }
    },
  };
}

/**
 * Type-checks a format argument without cel-js's homogeneous-literal rule for list and map literals
 * (validator.go hasStringFormatAncestor exempts every literal nested in a format call).
 */
function checkExempt(checker: Checker, node: ASTNode, ctx: unknown, types: Map<ASTNode, TypeDecl>): TypeDecl {
  let type: TypeDecl;
  // An optional entry (`[?x]`) must still be an optional, as checker.go requires of every literal.
  const optional = optionalEntries(node);
  const checkEntry = (entry: ASTNode, i: number) => {
    if (optional?.[i]) checkOptionalEntry(checker, entry, ctx);
    checkExempt(checker, entry, ctx, types);
  };
  if (node.op === 'list') {
    node.args.forEach(checkEntry);
    type = checker.getType('list<dyn>');
  } else if (node.op === 'map') {
    node.args.forEach(([key, value], i) => {
      checkExempt(checker, key, ctx, types);
      checkEntry(value, i);
    });
    type = checker.getType('map<dyn, dyn>');
  } else {
    type = checker.check(node, ctx);
  }
  types.set(node, type);
  return type;
}

function evaluateExempt(evaluator: Evaluator, node: ASTNode, ctx: unknown): unknown {
  const run = (entry: ASTNode) => evaluateExempt(evaluator, entry, ctx);
  const optional = optionalEntries(node) ?? [];
  if (node.op === 'list') return evaluateList(node, optional, run);
  // A Map keeps the key types, which the formatted output shows (`1:` versus `"1":`).
  if (node.op === 'map') {
    const map = new Map<unknown, unknown>();
    return evaluateMap(node, optional, run, { set: (k, v) => map.set(k, v), delete: (k) => map.delete(k), result: () => map });
  }
  return runSync(evaluator, node, ctx);
}
