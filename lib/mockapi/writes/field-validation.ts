/**
 * Server-side field validation (`?fieldValidation=Ignore|Warn|Strict`, GA since Kubernetes 1.27): what a
 * write does with the fields its body has and the kind does not, and with the keys its body repeats. Warn is
 * the default: each becomes a `Warning: 299 - "unknown field \"spec.x\""` (or `duplicate field`) header and
 * the write goes on; Strict refuses the write; Ignore drops them silently (a repeated key is decoded as
 * without validation: lib/go/json-struct-merge.ts for a built-in kind, its last value otherwise).
 * The texts are the handlers' (k8s.io/apiserver `pkg/endpoints/handlers/create.go`, `update.go`, `patch.go` and
 * `rest.go` `fieldValidation`, apimachinery `runtime.NewStrictDecodingError`), the allowed values apimachinery's
 * `ValidateFieldValidation`; their order is strict-errors.ts's.
 *
 * The unknown fields are the ones the typed decode of a built-in kind drops (lib/registry/decode) and the
 * ones a custom resource's schema prunes; the repeated keys are read from the body's text, which `JSON.parse`
 * would lose them from.
 */
import type { Json } from '../../kube/json';
import { ApiError, badRequest, type FieldError, invalid } from '../../kube/status';
import { goQuote } from '../../go/strconv';
import { WarningRecorder } from '../../kube/warning-recorder';
import type { CatalogEntry } from '../../kube/catalog';
import { goJson, goValueText } from '../../registry/crd/openapi/go-values';
import { repeatedFieldErrors, type StrictError, typedStrictErrors, unknownFieldErrors, unknownFieldErrorsSorted, yamlStrictErrors } from './strict-errors';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

/** How a patch is shown in a Strict refusal: the object it made, or the patch itself (strategic merge). */
export type PatchShown = { patched: Json } | { patchMap: Json };

/** A create's or update's body as the client sent it, for the keys it repeats. */
export interface SentBody {
  /** The body's JSON (a YAML body's conversion). */
  readonly text: string;
  /** A YAML body's repeated keys, in go-yaml's words. */
  readonly yamlRepeatedKeys?: readonly string[] | undefined;
}

/** What one write does with unknown fields and repeated keys, and the warnings it gathered. */
export interface FieldValidation {
  readonly directive: FieldValidationDirective;
  readonly warnings: WarningRecorder;
  /** Set for a PATCH: its refusal is patch.go's 422, not the body decoder's 400. */
  readonly patch?: PatchShown;
  /** A PATCH's own strict errors (the keys the patch repeats), listed before the patched object's. */
  readonly patchErrors?: readonly StrictError[];
  /** A create's or update's body, whose repeated keys are strict errors too. */
  readonly body?: SentBody;
}

/** What the decode of a write's object found: the fields the typed decode dropped, the ones pruning dropped. */
export interface DecodeFindings {
  readonly dropped: readonly string[];
  readonly pruned: readonly string[];
  /** Whether the kind decodes into a Go struct (a built-in kind) rather than a map (a custom resource). */
  readonly typed: boolean;
}

const ALLOWED = ['', 'Ignore', 'Strict', 'Warn'];

/**
 * The directive of a write's query (rest.go `fieldValidation`: absent or empty is Warn), or the 422 the
 * options' validation answers an unsupported value with.
 */
export function fieldValidationOf(url: URL, optionsKind: string, body?: SentBody): FieldValidation {
  const value = url.searchParams.get('fieldValidation') ?? '';
  if (!ALLOWED.includes(value)) {
    const supported = ALLOWED.map((allowed) => goQuote(allowed)).join(', ');
    const error: FieldError = {
      type: 'FieldValueNotSupported',
      field: 'fieldValidation',
      body: `Unsupported value: ${goQuote(value)}: supported values: ${supported}`,
    };
    throw new ApiError(invalid({ group: 'meta.k8s.io', kind: optionsKind }, '', [error]));
  }
  const directive = (value || 'Warn') as FieldValidationDirective;
  return { directive, warnings: new WarningRecorder(), ...(body ? { body } : {}) };
}

/** The write's strict errors in kube's order (strict-errors.ts). */
function strictErrorsOf(validation: FieldValidation, found: DecodeFindings): StrictError[] {
  if (validation.patch) {
    const unknown = found.typed ? unknownFieldErrorsSorted([...found.dropped, ...found.pruned]) : unknownFieldErrors([...found.dropped, ...found.pruned]);
    return [...(validation.patchErrors ?? []), ...unknown];
  }
  const yamlErrors = yamlStrictErrors(validation.body?.yamlRepeatedKeys ?? []);
  const text = validation.body?.text;
  if (found.typed) {
    const json = text === undefined ? unknownFieldErrors(found.dropped) : typedStrictErrors(text, found.dropped);
    return [...yamlErrors, ...json, ...unknownFieldErrors(found.pruned)];
  }
  const repeated = text === undefined ? [] : repeatedFieldErrors(text);
  return [...yamlErrors, ...repeated, ...unknownFieldErrors([...found.dropped, ...found.pruned])];
}

/**
 * Applies the directive to what the decode found (`spec.bogus`, `spec.containers[0].x`) and to the keys the
 * body repeats: warnings for Warn, kube's refusal for Strict.
 */
export function checkStrictDecoding(validation: FieldValidation | undefined, entry: CatalogEntry, found: DecodeFindings): void {
  if (!validation || validation.directive === 'Ignore') return;
  const errors = strictErrorsOf(validation, found);
  if (errors.length === 0) return;
  if (validation.directive === 'Warn') {
    for (const error of errors) for (const warning of error.warnings) validation.warnings.add(warning);
    return;
  }
  const strict = `strict decoding error: ${errors.map((error) => error.text).join(', ')}`;
  if (!validation.patch) {
    throw new ApiError(badRequest(`${entry.kind} in version ${goQuote(entry.version)} cannot be handled as a ${entry.kind}: ${strict}`));
  }
  // patch.go: the JSON and merge patchers show the patched object (Go's json.Marshal of a map: keys sorted),
  // the strategic merge patcher the patch map as fmt's %+v prints it.
  const shown = 'patched' in validation.patch ? goJson(validation.patch.patched) : goValueText(validation.patch.patchMap);
  throw new ApiError(
    invalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', body: `Invalid value: ${goQuote(shown)}: ${strict}` }]),
  );
}
