import type { Schema } from 'js-yaml';
import { yaml } from './yaml';

type JsYamlModule = typeof import('js-yaml');

let schema: Schema | undefined;
let jsYaml: JsYamlModule | undefined;

/**
 * YAML 1.1 as the `yaml` package reads it, parsed by js-yaml: five times faster on the fixture files
 * `replay` loads by the thousand (docs/decisions.md). Only the parse is js-yaml's: what a plain scalar
 * means (y, yes, on, 0777, 1:20, 2001-12-14, ~) is decided by the `yaml` package's own 1.1 tags, tried
 * in its order, so both parsers give one value. Quoted and block scalars stay strings in both.
 */
function yaml11Schema(): { jsYaml: JsYamlModule; schema: Schema } {
  if (!jsYaml || !schema) {
    jsYaml = require('js-yaml') as JsYamlModule;
    const y = yaml();
    const plainTags = new y.Schema({ schema: 'yaml-1.1' }).tags.filter(
      (tag): tag is typeof tag & { test: RegExp; resolve: (value: string, onError: (message: string) => void, options: object) => unknown } => {
        const t = tag as { default?: unknown; test?: unknown };
        return t.default === true && t.test instanceof RegExp;
      },
    );
    const { NOT_RESOLVED } = jsYaml;
    const unresolved: typeof NOT_RESOLVED = NOT_RESOLVED;
    const plain = jsYaml.defineScalarTag<unknown>('tag:admission-harness.io,2026:yaml-1.1-plain', {
      implicit: true,
      implicitFirstChars: null,
      resolve: (source) => {
        for (const tag of plainTags) {
          if (!tag.test.test(source)) continue;
          let failed = false;
          const value = tag.resolve(source, () => (failed = true), { intAsBigInt: false });
          // Some tags keep the source's format in a Scalar node (1.5 written `1.50`); its value is the value.
          return failed ? unresolved : y.isScalar(value) ? value.value : value;
        }
        return unresolved;
      },
      // Load-only: the harness writes YAML with the `yaml` package.
      identify: () => false,
    });
    // Plain objects, as the `yaml` package gives (js-yaml's own have no prototype). String keys only: a
    // key that resolves to anything else (`yes:`, `1:`) is refused, and the text read by the `yaml`
    // package, whose conversion of such keys is the reference.
    const map = jsYaml.defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
      create: () => ({}),
      addPair: (carrier, key, value) => {
        if (typeof key !== 'string') return 'a key that is not a string';
        Object.defineProperty(carrier, key, { value, enumerable: true, writable: true, configurable: true });
        return '';
      },
      has: (carrier, key) => typeof key === 'string' && Object.hasOwn(carrier, key),
      keys: (result) => Object.keys(result),
      get: (result, key) => result[key as string],
      identify: () => false,
    });
    schema = new jsYaml.Schema([jsYaml.strTag, jsYaml.seqTag, map, plain]);
  }
  return { jsYaml, schema };
}

/**
 * What a single-document YAML text holds, read as YAML 1.1, when the text uses nothing but plain YAML:
 * no `---`/`...` markers or directives (a stream's document indexes are the `yaml` package's to count),
 * no tags, anchors, aliases or merge keys (whose limits are its to enforce). `undefined` when the text
 * is not that, or does not parse: the caller reads it with the `yaml` package, which also says where
 * an error is.
 */
export function loadPlainYaml11(text: string): { value: unknown } | undefined {
  if (/^(?:---|\.\.\.|%)/m.test(text) || /[&*!]|<</.test(text)) return undefined;
  const { jsYaml: y, schema: s } = yaml11Schema();
  try {
    const value = y.load(text, { schema: s });
    return value === null || value === undefined ? undefined : { value };
  } catch {
    return undefined;
  }
}
