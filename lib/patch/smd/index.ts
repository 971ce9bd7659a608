/**
 * structured-merge-diff's model and merge, shared by MutatingAdmissionPolicy's ApplyConfiguration
 * (lib/policy/mutating) and the mock API's server-side apply (lib/mockapi/apply).
 */
export { mergeValues } from './smd-merge';
export type { MergeResult } from './smd-merge';
export { validateValue } from './smd-validate';
export { smdErrorsText } from './smd-errors';
export { toJson, isGoMap } from './smd-values';
export type { GoMap, GoValue } from './smd-values';
export { builtinApplySchema } from './builtin-schema';
export { crdApplySchema } from './crd-schema';
export type { ApplySchema, Atom } from './schema';
