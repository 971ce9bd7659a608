export { runBattery } from './battery';
export type { BatteryReport, BatteryOptions, CheckResult, ScenarioResult } from './battery';
export { CHECKS } from './checks';
export type { Check, CheckId, CheckVerdict } from './checks';
