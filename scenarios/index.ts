export { runBattery } from './battery';
export type { BatteryReport, BatteryOptions, CheckResult, ScenarioResult } from './battery';
export { CHECKS } from './checks';
export type { Check, CheckId, CheckVerdict } from './checks';
export { runSuite, runSuiteFile, runCase } from './suite/run';
export type { SuiteOptions } from './suite/run';
export { parseSuite } from './suite/parse';
export type { Suite, SuiteCase, CaseExpectation, CaseResult, SuiteReport } from './suite/model';
