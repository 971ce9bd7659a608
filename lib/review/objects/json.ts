// The review side names the registry's record type after what it builds: objects as JSON.
export { isRecord as isObject } from '../../kube/json';
export type { JsonRecord as JsonObject } from '../../kube/record';
export { objectAt, listAt, stringAt } from '../../kube/record';
