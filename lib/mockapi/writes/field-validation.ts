/**
 * Server-side field validation (`?fieldValidation=Ignore|Warn|Strict`, GA since Kubernetes 1.27): what a
 * write does with the fields its body has and the kind does not. Warn is the default: each unknown field
 * becomes a `Warning: 299 - "unknown field \"spec.x\""` header and the write goes on; Strict refuses the
 * write; Ignore drops them silently. The texts are the handlers' (k8s.io/apiserver
 * `pkg/endpoints/handlers/create.go`, `update.go`, `patch.go` and `rest.go` `fieldValidation`,
 * apimachinery `runtime.NewStrictDecodingError`), the allowed values apimachinery's
 * `ValidateFieldValidation`.
 *
 * The unknown fields are the ones the typed decode of a built-in kind drops (lib/registry/decode) and the
 * ones a custom resource's schema prunes. Not covered: duplicate JSON keys (`duplicate field`), which the
 * body's parse does not keep.
 */
import type { Json } from '../../kube/json';
import { ApiError, badRequest, type FieldError, invalid } from '../../kube/status';
import { goQuote } from '../../go/strconv';
import { WarningRecorder } from '../../kube/warning-recorder';
import type { CatalogEntry } from '../../kube/catalog';
import { goJson, goValueText } from '../../registry/crd/openapi/go-values';

export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

/** How a patch is shown in a Strict refusal: the object it made, or the patch itself (strategic merge). */
export type PatchShown = { patched: Json } | { patchMap: Json };

/** What one write does with unknown fields, and the warnings it gathered. */
export interface FieldValidation {
  readonly directive: FieldValidationDirective;
  readonly warnings: WarningRecorder;
  /** Set for a PATCH: its refusal is patch.go's 422, not the body decoder's 400. */
  readonly patch?: PatchShown;
}

const ALLOWED = ['', 'Ignore', 'Strict', 'Warn'];

/**
 * The directive of a write's query (rest.go `fieldValidation`: absent or empty is Warn), or the 422 the
 * options' validation answers an unsupported value with.
 */
export function fieldValidationOf(url: URL, optionsKind: string): FieldValidation {
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
  return { directive, warnings: new WarningRecorder() };
}

/**
 * Applies the directive to the fields a decode dropped (`spec.bogus`, `spec.containers[0].x`): warnings
 * for Warn, kube's refusal for Strict.
 */
export function checkUnknownFields(validation: FieldValidation | undefined, entry: CatalogEntry, dropped: readonly string[]): void {
  if (!validation || dropped.length === 0 || validation.directive === 'Ignore') return;
  const errors = dropped.map((path) => `unknown field ${goQuote(path)}`);
  if (validation.directive === 'Warn') {
    for (const error of errors) validation.warnings.add(error);
    return;
  }
  const strict = `strict decoding error: ${errors.join(', ')}`;
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
