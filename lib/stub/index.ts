export { stub } from './behavior';
export type { StubBehavior, StubResponse, StubCondition } from './behavior';
export { createStub } from './server';
export type { StubServer } from './server';
