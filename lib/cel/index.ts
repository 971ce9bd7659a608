export { loadCel } from './runtime';
export { compileMatchConditions } from './match-conditions';
export type { CompiledConditions, MatchConditionsInput, MatchConditionsTarget } from './match-conditions';
export type { Authorizer, AuthorizationAttributes, AuthorizationResult } from '../authz/authorizer';
