import type { JsonObject } from '../../lib/kube/json';
import type { Printer } from '../../lib/mockapi/tables/printer';

/*
 * Shared by the printer tests (kubernetes pkg/printers/internalversion/printers.go as the mock API runs it):
 * objects made at a fixed instant and read at another, so every Age is fixed.
 */

export const NOW = Date.parse('2026-06-01T12:00:00Z');
export const ago = (seconds: number): string => new Date(NOW - seconds * 1000).toISOString().replace('.000Z', 'Z');
export const meta = (name: string, extra: JsonObject = {}): JsonObject => ({ name, creationTimestamp: ago(3 * 86_400 + 3_600), ...extra });
export const cells = (printer: Printer, object: JsonObject) => printer.row(object, NOW).cells;
/** Each column as `Name:type`, a `*` after the name of a wide (priority 1) one. */
export const header = (printer: Printer) => printer.columns.map((c) => `${c.name}${c.priority ? '*' : ''}:${c.type}`);
