export type * from './admission';
export type * from './webhook-config';
export { splitApiVersion } from './api-version';
export {
  ResourceCatalog,
  defaultCatalog,
  registerResource,
  registerCustomResourceDefinition,
  resourceForKind,
  resourceByName,
  subresourceInfo,
  kindFor,
  equivalentResources,
} from './catalog';
export type { ResourceInfo, CatalogEntry, SubresourceInfo } from './catalog';
export { compileSelector } from './label-selector';
export type { CompiledSelector } from './label-selector';
