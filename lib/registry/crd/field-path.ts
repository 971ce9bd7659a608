/**
 * Field paths as the CRD code builds them, kept as strings: kube-openapi names a failing field with a
 * dotted string (`spec.items[0].name`), and the CRD validators start from a nil field.Path, which
 * prints `<nil>` when an error names no field at all. `at()` turns one into the Path the field-error
 * constructors take.
 */
import { Path } from '../../kube/field-path';

/** `p.Child(name)` of a possibly nil path. */
export const child = (path: string, name: string): string => (path ? `${path}.${name}` : name);

/** `p.Key(key)`: map keys are bracketed, unquoted. */
export const key = (path: string, name: string): string => `${path}[${name}]`;

/** `p.Index(i)`. */
export const index = (path: string, i: number): string => `${path}[${i}]`;

/** The Path printing `path`; the nil path prints `<nil>`, as field.Path's String does. */
export function at(path: string): Path {
  return Path.of(path === '' ? '<nil>' : path);
}
