export type * from './admission';
export type * from './webhook-config';
export { splitApiVersion } from './api-version';
export { registerResource, resourceForKind } from './catalog';
export type { ResourceInfo } from './catalog';
