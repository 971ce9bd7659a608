/** cel-go ext/formatting.go stringFormatValidator: compile-time checks of a literal format string against a list literal. */
import type { ASTNode } from '@marcbachmann/cel-js';
import { goTypeName, type TypeDecl } from './macro';
import { type Clause, clauseError, FormatError, type Interpolator, parseFormatString } from './string-format-clauses';

const STRING_KINDS = new Set([
  'list',
  'map',
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'google.protobuf.Timestamp',
  'bytes',
  'google.protobuf.Duration',
  'type',
  'null_type',
]);

export function validateFormat(
  format: string,
  elements: ASTNode[],
  typeOfNode: (node: ASTNode) => TypeDecl,
  report: (message: string, node?: ASTNode) => never,
): void {
  const nameOf = (node: ASTNode) => goTypeName(typeOfNode(node));
  const oneOf = (node: ASTNode, kinds: string[]) => {
    const name = nameOf(node);
    return name === 'dyn' || kinds.includes(name);
  };
  /** stringFormatChecker.verifyString: the offending node, or undefined. */
  const verifyString = (node: ASTNode): ASTNode | undefined => {
    const name = nameOf(node);
    if (name !== 'dyn' && !STRING_KINDS.has(name)) return node;
    if (node.op === 'list') {
      for (const element of node.args) {
        const bad = verifyString(element);
        if (bad) return bad;
      }
    } else if (node.op === 'map') {
      for (const [key, value] of node.args) {
        const bad = verifyString(key) ?? verifyString(value);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  let badNode: ASTNode | undefined;
  const check =
    (kinds: string[], error: (t: string) => FormatError): Clause =>
    (node) => {
      const element = node as ASTNode;
      if (!oneOf(element, kinds)) {
        badNode = element;
        throw error(nameOf(element));
      }
      return '';
    };
  const checker: Interpolator = {
    string: (node) => {
      const bad = verifyString(node as ASTNode);
      if (bad) {
        badNode = bad;
        throw clauseError.string(nameOf(bad));
      }
      return '';
    },
    decimal: check(['int', 'uint'], clauseError.decimal),
    fixed: () => check(['double', 'string'], clauseError.fixed),
    scientific: () => check(['double', 'string'], clauseError.scientific),
    binary: check(['int', 'uint', 'bool'], clauseError.binary),
    hex: () => check(['int', 'uint', 'string', 'bytes'], clauseError.hex),
    octal: check(['int', 'uint'], clauseError.octal),
  };
  let requested = 0;
  try {
    parseFormatString(
      format,
      elements.length,
      (index) => {
        requested++;
        return [elements[index], ''];
      },
      checker,
      false,
    );
  } catch (error) {
    if (error instanceof FormatError) report(error.message, badNode);
    throw error;
  }
  if (elements.length > requested) {
    report(`too many arguments supplied to string.format (expected ${requested}, got ${elements.length})`);
  }
}
