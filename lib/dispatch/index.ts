export { runChain } from './admit';
export type { ChainResult } from './admit';
export { AdmissionTrace } from './trace';
export type { TraceStep } from './trace';
export { WarningRecorder } from './warnings';
export { AuditAnnotations } from './annotations';
export type { DispatchContext } from './context';
