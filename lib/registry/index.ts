export { Registry } from './registry';
export type { PatchedObject, RegistryOptions } from './registry';
export { deleteAttempts } from './delete';
export type { DeleteAttempt } from './delete';
export { preparedForValidation, validatingView } from './validating-view';
export { storageRandom } from './strategy/random';
export type { StorageRandom } from './strategy/random';
