/**
 * Label and annotation maps (apimachinery apis/meta/v1/validation ValidateLabels, ValidateLabelName,
 * and api/validation ValidateAnnotations). Every error names the map, not the key: kube reports
 * `metadata.labels: Invalid value: "bad key!": …`.
 */
import type { FieldError } from '../../kube/status';
import { sortedEntries } from './access';
import { invalid, tooLong } from '../../kube/field-errors';
import { labelValueErrors, qualifiedNameErrors } from '../../kube/value-formats';
import type { Path } from '../../kube/field-path';

/** apimachinery validation.TotalAnnotationSizeLimitB: 256 KiB of keys and values together. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** ValidateLabelName: a qualified name. */
export function validateLabelName(name: string, path: Path): FieldError[] {
  return qualifiedNameErrors(name).map((message) => invalid(path, name, message));
}

/** ValidateLabels. Map order is random in Go; keys are taken in sorted order here. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of sortedEntries(labels)) {
    errors.push(...validateLabelName(key, path));
    errors.push(...labelValueErrors(value).map((message) => invalid(path, value, message)));
  }
  return errors;
}

/** ValidateAnnotations: keys are qualified names ignoring case; keys and values total at most 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  let size = 0;
  for (const [key, value] of sortedEntries(annotations)) {
    errors.push(...qualifiedNameErrors(key.toLowerCase()).map((message) => invalid(path, key, message)));
    size += Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errors.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errors;
}
