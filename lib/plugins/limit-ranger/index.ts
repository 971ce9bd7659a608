export { limitRangerHandles, limitRangerInvolvement } from './applies';
export type { LimitRangerAttributes } from './applies';
export { LIMIT_RANGER_ANNOTATION, limitRangerDefaults } from './defaults';
export { limitRangerValidate } from './validate';
export { limitRanger } from './plugin';
