import { HarnessError } from '../errors';
import { isRecord } from '../kube/json';
import type { AuditEvent, AuditLevel, AuditStage } from './event';

const API_VERSION = 'audit.k8s.io/v1';
const LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];
const STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

function invalid(at: string, message: string, hint?: string): never {
  throw new HarnessError('REVIEW_INVALID', `${at}: ${message}`, hint);
}

/** Checks one decoded event's members (types.go's required ones and their enumerations), naming where it came from. */
function checkedEvent(value: unknown, at: string): AuditEvent {
  if (!isRecord(value)) invalid(at, 'expected an audit.k8s.io/v1 Event object');
  if (value.kind !== 'Event') invalid(at, `kind: expected "Event", got ${JSON.stringify(value.kind)}`);
  if (value.apiVersion !== API_VERSION) {
    // The log backend writes the version of --audit-log-version; only v1 has been served since Kubernetes 1.24.
    invalid(
      at,
      `apiVersion: expected "${API_VERSION}", got ${JSON.stringify(value.apiVersion)}`,
      `write the log with --audit-log-version=${API_VERSION} (the default)`,
    );
  }
  for (const member of ['auditID', 'requestURI', 'verb'] as const) {
    if (typeof value[member] !== 'string' || value[member] === '') invalid(at, `${member}: Required value`);
  }
  if (!LEVELS.includes(value.level as AuditLevel))
    invalid(at, `level: Unsupported value: ${JSON.stringify(value.level)}: supported values: ${LEVELS.map((l) => `"${l}"`).join(', ')}`);
  if (!STAGES.includes(value.stage as AuditStage))
    invalid(at, `stage: Unsupported value: ${JSON.stringify(value.stage)}: supported values: ${STAGES.map((s) => `"${s}"`).join(', ')}`);
  if (value.user !== undefined && !isRecord(value.user)) invalid(at, 'user: expected an object');
  if (value.impersonatedUser !== undefined && value.impersonatedUser !== null && !isRecord(value.impersonatedUser))
    invalid(at, 'impersonatedUser: expected an object');
  if (value.objectRef !== undefined && value.objectRef !== null && !isRecord(value.objectRef)) invalid(at, 'objectRef: expected an object');
  if (value.responseStatus !== undefined && value.responseStatus !== null && !isRecord(value.responseStatus)) invalid(at, 'responseStatus: expected an object');
  if (value.annotations !== undefined && value.annotations !== null && !isRecord(value.annotations)) invalid(at, 'annotations: expected an object');
  return { ...value, user: isRecord(value.user) ? value.user : {} } as unknown as AuditEvent;
}

function eventsOfList(list: Record<string, unknown>, where: string): AuditEvent[] {
  if (list.apiVersion !== API_VERSION) invalid(where, `apiVersion: expected "${API_VERSION}", got ${JSON.stringify(list.apiVersion)}`);
  if (!Array.isArray(list.items)) invalid(where, 'items: expected a list of audit.k8s.io/v1 Events');
  return list.items.map((item, i) => checkedEvent(item, `${where}: items[${i}]`));
}

/** The whole text as one JSON document, when it is one (an EventList, or a single Event spread over lines). */
function wholeDocument(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The events of an audit log: the JSON lines kube-apiserver's log backend writes
 * (`--audit-log-format=json`, one Event a line), or one `EventList` document (what the webhook backend
 * sends). Blank lines are ignored; anything else that is not an audit.k8s.io/v1 Event is an error naming
 * its line (`audit.log:3: …`). `where` names the source in errors.
 */
export function auditEventsFrom(text: string, where = 'audit log'): AuditEvent[] {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const whole = wholeDocument(source);
  if (isRecord(whole) && whole.kind === 'EventList') return eventsOfList(whole, where);
  const lines = source.split(/\r?\n/);
  // One Event pretty-printed over several lines is one document too.
  if (isRecord(whole) && lines.filter((line) => line.trim() !== '').length > 1) return [checkedEvent(whole, where)];
  const events: AuditEvent[] = [];
  const last = lines.findLastIndex((line) => line.trim() !== '');
  lines.forEach((line, i) => {
    const at = `${where}:${i + 1}`;
    const trimmed = line.trim();
    if (trimmed === '') return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed) as unknown;
    } catch (error) {
      if (!trimmed.startsWith('{')) {
        // --audit-log-format=legacy writes `<time> AUDIT: id="…" …` lines, which carry no objects.
        invalid(at, `not a JSON audit event: ${JSON.stringify(trimmed.slice(0, 60))}`, 'write the audit log with --audit-log-format=json (the default)');
      }
      const cut = i === last ? ' (the last line: was the log still being written?)' : '';
      invalid(at, `not valid JSON: ${(error as Error).message}${cut}`);
    }
    if (isRecord(value) && value.kind === 'EventList') {
      events.push(...eventsOfList(value, at));
      return;
    }
    events.push(checkedEvent(value, at));
  });
  return events;
}
