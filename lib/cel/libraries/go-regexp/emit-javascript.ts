/** The syntax tree re-emitted as an equivalent `u`-mode JS pattern that never relies on the JS flags i, m or s. */
import { orbitOf } from './case-folding';
import { escapeRune, normalize, rangesBody } from './rune-ranges';
import type { ClassSet, Node } from './syntax-tree';

function emitClass(set: ClassSet, negated: boolean): string {
  const positive = rangesBody(set.ranges) + set.props.join('');
  if (set.complements.length === 0) return negated ? `[^${positive}]` : `[${positive}]`;
  if (!negated) {
    const alternatives = [...(positive ? [`[${positive}]`] : []), ...set.complements.map((body) => `[^${body}]`)];
    return alternatives.length === 1 ? (alternatives[0] as string) : `(?:${alternatives.join('|')})`;
  }
  // Not (P or not N1 or not N2 ...) = not P and N1 and N2 ...
  const lookaheads = set.complements
    .slice(0, -1)
    .map((body) => `(?=[${body}])`)
    .join('');
  return `(?:${positive ? `(?![${positive}])` : ''}${lookaheads}[${set.complements[set.complements.length - 1]}])`;
}

const WORD = '[0-9A-Za-z_]';
const ASSERTIONS: Readonly<Record<Extract<Node, { kind: 'assert' }>['which'], string>> = {
  bot: '^',
  eot: '$',
  bol: '(?<![^\\n])',
  eol: '(?![^\\n])',
  wb: `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`,
  nwb: `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`,
};

export function emitJavaScript(node: Node): string {
  switch (node.kind) {
    case 'literal': {
      const orbit = node.fold ? orbitOf(node.cp) : [node.cp];
      return orbit.length > 1 ? `[${rangesBody(normalize(orbit.map((c) => [c, c])))}]` : escapeRune(node.cp);
    }
    case 'class':
      return emitClass(node.set, node.negated);
    case 'any':
      return node.nl ? '[^]' : '[^\\n]';
    case 'assert':
      return ASSERTIONS[node.which];
    case 'capture':
      return `(?:${emitJavaScript(node.sub)})`;
    case 'concat':
      return node.subs.map(emitJavaScript).join('');
    case 'alt':
      return `(?:${node.subs.map(emitJavaScript).join('|')})`;
    case 'empty':
      return '(?:)';
    case 'repeat': {
      const { min, max } = node;
      const quantifier =
        min === 0 && max === -1
          ? '*'
          : min === 1 && max === -1
            ? '+'
            : min === 0 && max === 1
              ? '?'
              : max === -1
                ? `{${min},}`
                : min === max
                  ? `{${min}}`
                  : `{${min},${max}}`;
      return `(?:${emitJavaScript(node.sub)})${quantifier}${node.greedy ? '' : '?'}`;
    }
  }
}
