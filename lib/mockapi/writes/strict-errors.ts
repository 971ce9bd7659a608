/**
 * The strict decoding errors of a write's body, in the order kube-apiserver lists them: sigs.k8s.io/json's
 * `UnmarshalStrict` saves `unknown field "<path>"` and `duplicate field "<path>"` as its decoder meets them
 * (each text once, at most 100: `saveStrictError`), and the handlers join them after `strict decoding error: `
 * (apimachinery `runtime.NewStrictDecodingError`) or send each as a warning (handlers `addStrictDecodingWarnings`,
 * which splits go-yaml's list of repeated keys into one warning per key).
 *
 * How the order comes about (as kube's field validation integration test records it):
 * - a built-in kind decodes into its Go struct: unknown and repeated fields interleave in document order; an
 *   unknown field is skipped whole, so a repeated unknown field is reported once, as unknown;
 * - a custom resource decodes into a map: every repeated key anywhere, then the fields its schema prunes;
 * - a YAML body: go-yaml's repeated keys first (`YAMLToJSONStrict`), then the JSON's (which has no repeats);
 * - a merge or strategic merge patch: the patch's repeated keys (decoded into a map), then the patched object's
 *   unknown fields, which Go marshals from a map: sorted by key at every level;
 * - a JSON patch: its operations' unknown and repeated members, prefixed `json patch `, then the patched object's.
 */
import { compareBytes } from '../../go/json-marshal';
import { jsonObjectKeys, mayRepeatMemberNames, type ObjectKey } from '../../go/json-object-keys';
import { goQuote } from '../../go/strconv';
import { yamlUnmarshalErrors } from '../yaml-body';

/** One strict decoding error: its text in a refusal, and the warnings it is under `fieldValidation=Warn`. */
export interface StrictError {
  readonly text: string;
  readonly warnings: readonly string[];
}

// sigs.k8s.io/json saveStrictError: "prevent excessive numbers of accumulated errors".
const MAX_SAVED = 100;

const plain = (text: string): StrictError => ({ text, warnings: [text] });
const unknownField = (path: string): string => `unknown field ${goQuote(path)}`;
const duplicateField = (path: string): string => `duplicate field ${goQuote(path)}`;

/** One decoder's saved errors: each text once, the first 100. */
function saved(texts: readonly string[]): StrictError[] {
  return [...new Set(texts)].slice(0, MAX_SAVED).map(plain);
}

/** go-yaml's repeated keys of a YAML body, as the one error `YAMLToJSONStrict` returns. */
export function yamlStrictErrors(lines: readonly string[]): StrictError[] {
  return lines.length > 0 ? [{ text: yamlUnmarshalErrors(lines), warnings: lines }] : [];
}

// Members whose Go type reads its JSON raw (metav1.FieldsV1's UnmarshalJSON): nothing inside is checked.
const RAW_MEMBERS = /^metadata\.managedFields\[\d+\]\.fieldsV1$/;

const inside = (path: string, outer: string): boolean => path.startsWith(`${outer}.`) || path.startsWith(`${outer}[`);

/**
 * A built-in kind's body decoded into its Go struct: its unknown fields (`dropped`, the typed decode's paths)
 * and repeated fields, in document order.
 */
export function typedStrictErrors(text: string, dropped: readonly string[]): StrictError[] {
  // The walk is for a body that repeats a name or has unknown fields to put in order; most have neither.
  if (dropped.length === 0 && !mayRepeatMemberNames(text)) return [];
  const unknown = new Set(dropped);
  const texts: string[] = [];
  let skipped: string | undefined;
  for (const key of jsonObjectKeys(text)) {
    if (skipped !== undefined && inside(key.path, skipped)) continue;
    skipped = undefined;
    if (unknown.has(key.path)) {
      texts.push(unknownField(key.path));
      skipped = key.path;
      continue;
    }
    if (key.repeated) texts.push(duplicateField(key.path));
    if (RAW_MEMBERS.test(key.path)) skipped = key.path;
  }
  // A dropped field the walk names otherwise (a map of structs' key) still counts, after the others.
  for (const path of dropped) texts.push(unknownField(path));
  return saved(texts);
}

/** A body decoded into a map (a custom resource, a merge patch): every repeated key, in document order. */
export function repeatedKeyErrors(keys: readonly ObjectKey[], prefix = ''): StrictError[] {
  return saved(keys.filter((key) => key.repeated).map((key) => prefix + duplicateField(key.path)));
}

/** The JSON text's repeated keys, when it is one. */
export function repeatedFieldErrors(text: string): StrictError[] {
  if (!mayRepeatMemberNames(text)) return [];
  return repeatedKeyErrors(jsonObjectKeys(text));
}

// patch.go jsonPatchOp: the members an operation decodes into; its value is an interface{} (a map, checked).
const JSON_PATCH_OP_MEMBERS = new Set(['op', 'path', 'from', 'value']);

/** A JSON patch decoded into `[]jsonPatchOp` (patch.go applyJSPatch), its errors prefixed `json patch `. */
export function jsonPatchStrictErrors(text: string): StrictError[] {
  const texts: string[] = [];
  let skipped: string | undefined;
  for (const key of jsonObjectKeys(text)) {
    if (skipped !== undefined && inside(key.path, skipped)) continue;
    skipped = undefined;
    if (/^\[\d+\]$/.test(key.parent) && !JSON_PATCH_OP_MEMBERS.has(key.name)) {
      texts.push(`json patch ${unknownField(key.path)}`);
      skipped = key.path;
    } else if (key.repeated) texts.push(`json patch ${duplicateField(key.path)}`);
  }
  return saved(texts);
}

/** A patch's own strict errors (patch.go): a JSON patch's operations', a merge patch's repeated keys. */
export function patchStrictErrors(type: string, text: string): StrictError[] {
  return type === 'json' ? jsonPatchStrictErrors(text) : repeatedFieldErrors(text);
}

/** A path's steps: member names and `[i]` indices. */
function steps(path: string): string[] {
  return path.split(/\.|(?=\[\d+\])/);
}

function compareSteps(a: string, b: string): number {
  const index = /^\[(\d+)\]$/;
  const [x, y] = [index.exec(a), index.exec(b)];
  if (x && y) return Number(x[1]) - Number(y[1]);
  return compareBytes(a, b);
}

/** Unknown fields of an object Go marshalled from a map before decoding it: sorted by key at every level. */
export function unknownFieldErrorsSorted(dropped: readonly string[]): StrictError[] {
  const sorted = [...dropped].sort((a, b) => {
    const [x, y] = [steps(a), steps(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const order = compareSteps(x[i] as string, y[i] as string);
      if (order !== 0) return order;
    }
    return x.length - y.length;
  });
  return saved(sorted.map(unknownField));
}

/** Unknown fields in the order found (a custom resource's pruning). */
export function unknownFieldErrors(paths: readonly string[]): StrictError[] {
  return saved(paths.map(unknownField));
}
