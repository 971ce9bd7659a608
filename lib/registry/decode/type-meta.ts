/**
 * What the JSON serializer does with `apiVersion` and `kind` before decoding the body
 * (`staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go`, `Serializer.Decode`):
 *
 * 1. `SimpleMetaFactory.Interpret` (`.../serializer/json/meta.go`) reads them with the standard library's
 *    encoding/json into an anonymous struct — case-insensitively, unlike the typed decode — and fails with
 *    `couldn't get version/kind; json parse error: …` when one is not a string.
 * 2. `schema.ParseGroupVersion` splits apiVersion (`unexpected GroupVersion string: a/b/c`).
 * 3. `gvkWithDefaults` fills what is missing from the type decoded into (the kind the webhook was sent).
 * 4. `runtime.UseOrCreateObject` decodes into that type when the GVK matches, else asks the scheme for
 *    an object of the GVK the JSON names — another registered kind, or `no kind "X" is registered for
 *    version "g/v" in scheme "…"`.
 */
import { goJsonKind } from '../../go/json-errors';
import { goQuote } from '../../go/strconv';
import type { JsonObject } from '../../kube/json';

/**
 * The name runtime.NewScheme gives kube-apiserver's legacyscheme (`naming.GetNameFromCallsite`: file and
 * line of `Scheme = runtime.NewScheme()` in `pkg/api/legacyscheme/scheme.go`), which its errors quote.
 * The apiextensions and apiregistration groups live in schemes of their own whose names are not modelled.
 */
export const LEGACY_SCHEME_NAME = 'pkg/api/legacyscheme/scheme.go:30';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export type TypeMetaResult = { ok: true; gvk: GroupVersionKind } | { ok: false; message: string };

/** Go's foldName for the two names the anonymous struct has: ASCII upper-casing plus the three non-ASCII letters that fold into them. */
function fold(key: string): string {
  let out = '';
  for (const ch of key) {
    if (ch === '\u0131')
      out += 'I'; // dotless i
    else if (ch === '\u017F')
      out += 'S'; // long s
    else if (ch === '\u212A')
      out += 'K'; // Kelvin sign
    else out += ch.length === 1 && ch.charCodeAt(0) < 0x80 ? ch.toUpperCase() : ch;
  }
  return out;
}

const FOLDED: ReadonlyMap<string, 'apiVersion' | 'kind'> = new Map([
  ['APIVERSION', 'apiVersion'],
  ['KIND', 'kind'],
]);

/** SimpleMetaFactory.Interpret + ParseGroupVersion. */
export function interpretTypeMeta(json: JsonObject): TypeMetaResult {
  let apiVersion = '';
  let kind = '';
  let saved: string | undefined;
  for (const key of Object.keys(json)) {
    // Folding keeps the length, so only keys as long as the two names can match.
    const field = key === 'apiVersion' || key === 'kind' ? key : key.length === 4 || key.length === 10 ? FOLDED.get(fold(key)) : undefined;
    if (field === undefined) continue;
    const value = json[key];
    if (typeof value === 'string') {
      if (field === 'apiVersion') apiVersion = value;
      else kind = value;
    } else if (value !== null && saved === undefined) {
      // The anonymous struct's type name is empty, hence `.kind`.
      saved = `json: cannot unmarshal ${goJsonKind(value)} into Go struct field .${field} of type string`;
    }
  }
  if (saved !== undefined) return { ok: false, message: `couldn't get version/kind; json parse error: ${saved}` };
  const gv = parseGroupVersion(apiVersion);
  if (gv === undefined) return { ok: false, message: `unexpected GroupVersion string: ${apiVersion}` };
  return { ok: true, gvk: { group: gv.group, version: gv.version, kind } };
}

/** schema.ParseGroupVersion. */
export function parseGroupVersion(gv: string): { group: string; version: string } | undefined {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return undefined;
}

/** gvkWithDefaults: what the JSON leaves out comes from the type decoded into. */
export function gvkWithDefaults(actual: GroupVersionKind, defaults: GroupVersionKind): GroupVersionKind {
  let { group, version, kind } = actual;
  if (kind === '') kind = defaults.kind;
  if (version === '' && group === '') {
    group = defaults.group;
    version = defaults.version;
  }
  if (version === '' && group === defaults.group) version = defaults.version;
  return { group, version, kind };
}

/** GroupVersion.String(): `v1` for the core group, else `group/version`. */
export function apiVersionOf(gvk: { group: string; version: string }): string {
  return gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
}

/** runtime.notRegisteredErr (`%q` throughout) for a GVK the scheme does not know. */
export function notRegisteredMessage(gvk: GroupVersionKind): string {
  const scheme = goQuote(LEGACY_SCHEME_NAME);
  if (gvk.kind === '') return `no version ${goQuote(apiVersionOf(gvk))} has been registered in scheme ${scheme}`;
  return `no kind ${goQuote(gvk.kind)} is registered for version ${goQuote(apiVersionOf(gvk))} in scheme ${scheme}`;
}
