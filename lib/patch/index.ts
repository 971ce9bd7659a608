export { applyJsonPatch, GO_PANIC_PREFIX } from './apply';
export type { ApplyResult } from './apply';
export { decodeJsonPatch } from './decode';
export type { DecodeResult, DecodedOperation } from './decode';
export type { JsonPatchOperation } from '../kube/admission';
export { mergePatch } from './merge-patch';
export { strategicMerge, StrategicMergeError } from './strategic-merge';
