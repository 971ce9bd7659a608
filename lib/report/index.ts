/**
 * HTML reports: the conformance battery's (`check --html`), a replay's (`replay --html`) and admission
 * coverage alone (a reporter's `html` option). Each is one self-contained HTML5 file — inline styles,
 * a small optional script, no URL of any kind — that reads the same with scripts off, and is the same
 * bytes for the same input.
 */
export { htmlFromBattery, type BatteryHtmlOptions } from './battery';
export { htmlFromBackendBattery } from './backend-battery';
export { htmlFromReplay, type ReplayHtmlOptions } from './replay';
export { htmlFromCoverage, type CoverageHtmlOptions } from './coverage-report';
export type { DocumentOptions } from './document';
export { escapeHtml } from './escape';
