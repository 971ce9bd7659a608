export { loadManifests, loadManifestSet } from './load';
export type { WebhookEntry, ManifestInput, ManifestSet, ValidatingPolicyEntry, ValidatingBindingEntry } from './load';
export { parseManifestText, parseManifestFiles } from './parse';
