export { loadManifests } from './load';
export type { WebhookEntry, ManifestInput } from './load';
export { parseManifestText, parseManifestFiles } from './parse';
