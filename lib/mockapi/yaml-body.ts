/**
 * A YAML request body as kube-apiserver reads one (sigs.k8s.io/yaml over its go-yaml v2 fork): a key that
 * repeats in its mapping keeps its last value, and the strict reading (`YAMLToJSONStrict`, `UnmarshalStrict`)
 * lists each repeat as go-yaml's `line N: key "x" already set in map` (its decoder's `setMapIndex`: the line
 * is the repeated value's, counted from 1), in the order the decoder meets them: a value's own repeats before
 * the repeat of its key.
 */
import type { Document, LineCounter, Node, Tags } from 'yaml';
import { goQuote } from '../go/strconv';
import { yaml } from '../yaml';

/** The go-yaml v2 type error that lists a strict reading's repeated keys (`yaml.TypeError.Error()`). */
export const yamlUnmarshalErrors = (lines: readonly string[]): string => `yaml: unmarshal errors:\n  ${lines.join('\n  ')}`;

/** What a YAML body decodes to. */
export interface YamlBody {
  /** The value, a repeated key's last value kept (go-yaml's non-strict reading). */
  readonly value: unknown;
  /** go-yaml's strict-reading errors, one per repeated key; empty when no key repeats. */
  readonly repeatedKeys: readonly string[];
}

/** A YAML body that is not YAML. */
export class YamlBodyError extends Error {}

/** `%#v` of a key as go-yaml decodes it into an interface{}. */
function keyText(key: unknown): string {
  if (typeof key === 'string') return goQuote(key);
  if (key === null || key === undefined) return '<nil>';
  return String(key);
}

/** What a walk of the document needs: where lines are, the repeats found, the collections it is inside. */
interface Walk {
  readonly doc: Document.Parsed;
  readonly lines: LineCounter;
  readonly out: string[];
  readonly within: unknown[];
}

function repeatsIn(node: unknown, walk: Walk): void {
  const { isAlias, isMap, isSeq, isScalar } = yaml();
  // go-yaml's decoder (decode.go `alias`) refuses an alias inside the value it names; the yaml package
  // would build a cycle that no JSON can hold.
  if (isAlias(node) && walk.within.includes(node.resolve(walk.doc))) throw new YamlBodyError(`anchor '${node.source}' value contains itself`);
  if (!isSeq(node) && !isMap(node)) return;
  walk.within.push(node);
  if (isSeq(node)) for (const item of node.items) repeatsIn(item, walk);
  else {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      const identity = `${typeof key}:${String(key)}`;
      repeatsIn(pair.value, walk);
      if (seen.has(identity)) {
        const where = (pair.value as Node | null)?.range ?? (pair.key as Node | null)?.range;
        walk.out.push(`line ${walk.lines.linePos(where?.[0] ?? 0).line}: key ${keyText(key)} already set in map`);
      }
      seen.add(identity);
    }
  }
  walk.within.pop();
}

/**
 * The yaml package's refusals while it resolves aliases (ReferenceErrors), in go-yaml's words (decode.go
 * `alias` and `unmarshal`; the yaml package counts aliases its own way, not by go-yaml's ratio).
 */
function aliasError(error: unknown): unknown {
  if (!(error instanceof ReferenceError)) return error;
  const unresolved = /^Unresolved alias[^:]*: (.*)$/.exec(error.message);
  if (unresolved) return new YamlBodyError(`unknown anchor '${unresolved[1]}' referenced`);
  if (error.message.startsWith('Excessive alias count')) return new YamlBodyError('document contains excessive aliasing');
  return error;
}

/**
 * YAML 1.1's tags as go-yaml v2 resolves a plain scalar decoded into an interface{} (resolve.go, decode.go
 * `scalar`): it reads no base-60 numbers (`22:22` stays a string) and keeps a timestamp's own text ("for
 * backward compatibility", not a time), where the yaml package would make 1342 and a Date.
 */
function goYamlTags(tags: Tags): Tags {
  return tags.filter((tag) => typeof tag === 'string' || (tag.format !== 'TIME' && tag.tag !== 'tag:yaml.org,2002:timestamp'));
}

/** The first document of a YAML body, as go-yaml's Unmarshal reads it (later ones unread), with its repeated keys. */
export function parseYamlBody(text: string): YamlBody {
  const { LineCounter, parseAllDocuments } = yaml();
  const lines = new LineCounter();
  const [doc] = parseAllDocuments(text, { version: '1.1', uniqueKeys: false, lineCounter: lines, customTags: goYamlTags });
  if (doc === undefined || !('errors' in doc)) return { value: null, repeatedKeys: [] };
  const [first] = doc.errors;
  if (first) throw new YamlBodyError(first.message.split('\n')[0] ?? first.message);
  const repeatedKeys: string[] = [];
  repeatsIn(doc.contents, { doc, lines, out: repeatedKeys, within: [] });
  try {
    return { value: doc.toJS({ maxAliasCount: 100 }), repeatedKeys };
  } catch (error) {
    throw aliasError(error);
  }
}
