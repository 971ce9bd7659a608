export { review } from './builders';
export type { CreateOptions } from './builders';
export { objects } from './objects';
export type { PodOptions } from './objects';
export { Review } from './review';
export type { AdmissionAttributes } from './attributes';
export { DEFAULT_USER } from './attributes';
export { encodeReview } from './encode';
export { SeededRandom, freshSeed } from './random';
