export { review } from './builders';
export type {
  RequestOptions,
  CreateOptions,
  UpdateOptions,
  PatchOptions,
  ApplyOptions,
  DeleteOptions,
  ConnectOptions,
  StatusOptions,
  ScaleOptions,
  TokenOptions,
  DebugOptions,
  CreateVia,
  UpdateVia,
  PatchType,
} from './builders';
export { objects } from './objects';
export type {
  PodOptions,
  OwnedOptions,
  GenerateOptions,
  ObjectInput,
  Shortcuts,
  WorkloadShortcuts,
  DeepPartial,
  CustomResourceOptions,
  FromYamlOptions,
} from './objects';
export { users } from './users';
export type { ServiceAccountUserOptions } from './users';
export { Review } from './review';
export type { AdmissionAttributes } from '../kube/attributes';
export { DEFAULT_USER } from '../kube/attributes';
export { encodeReview } from './encode';
export { reviewFromRequest } from './from-request';
export type { InvocationView } from './encode';
export { SeededRandom, freshSeed } from '../random';
