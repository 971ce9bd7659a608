/**
 * File-path rules of core validation: validateLocalDescendingPath, validatePathNoBacksteps and
 * ValidateLocalNonReservedPath (volume items, subPaths, seccomp localhost profiles).
 */
import type { FieldError } from '../../kube/status';
import { invalid } from '../../kube/field-errors';
import type { Path } from '../../kube/field-path';

/** validatePathNoBacksteps: no `..` element (one error is enough). */
export function validatePathNoBacksteps(target: string, path: Path): FieldError[] {
  return target.split('/').includes('..') ? [invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative, without `..`. */
export function validateLocalDescendingPath(target: string, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (target.startsWith('/')) errors.push(invalid(path, target, 'must be a relative path'));
  errors.push(...validatePathNoBacksteps(target, path));
  return errors;
}

/** ValidateLocalNonReservedPath: also not starting with `..` (unless `../`, already reported). */
export function validateLocalNonReservedPath(target: string, path: Path): FieldError[] {
  const errors = validateLocalDescendingPath(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errors.push(invalid(path, target, "must not start with '..'"));
  return errors;
}
