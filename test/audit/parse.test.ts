import { readFileSync } from 'node:fs';
import path from 'node:path';
import { auditEventsFrom } from '../../lib/audit';
import { HarnessError } from '../../lib/errors';

const LOG = readFileSync(path.join(__dirname, 'fixtures/audit.log'), 'utf8');

/** A minimal valid event, as one JSON line. */
function line(members: Record<string, unknown> = {}): string {
  return JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Request',
    auditID: 'a-1',
    stage: 'ResponseComplete',
    requestURI: '/api/v1/namespaces/cap/configmaps',
    verb: 'create',
    user: { username: 'admin' },
    ...members,
  });
}

function errorOf(text: string, where?: string): HarnessError {
  try {
    auditEventsFrom(text, where);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error('expected auditEventsFrom to throw');
}

describe('auditEventsFrom: the log backend JSON lines', () => {
  it('reads one event per line, in order, blank lines aside', () => {
    const events = auditEventsFrom(LOG, 'audit.log');
    expect(events).toHaveLength(12);
    expect(events.map((e) => `${e.stage} ${e.verb}`)).toEqual([
      'RequestReceived create',
      'ResponseComplete create',
      'RequestReceived get',
      'ResponseComplete get',
      'RequestReceived patch',
      'ResponseComplete patch',
      'RequestReceived create',
      'ResponseComplete create',
      'ResponseComplete update',
      'RequestReceived get',
      'ResponseStarted get',
      'ResponseComplete get',
    ]);
    expect(auditEventsFrom(`\n${line()}\r\n\n${line({ auditID: 'a-2' })}\n`).map((e) => e.auditID)).toEqual(['a-1', 'a-2']);
  });

  it('keeps the embedded objects as logged, key order included', () => {
    const [, created] = auditEventsFrom(LOG);
    expect(Object.keys(created!.requestObject as object)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(created!.objectRef).toEqual({ resource: 'pods', namespace: 'cap', name: 'x1', apiVersion: 'v1' });
  });

  it('ignores a byte order mark and reads an empty log as no events', () => {
    expect(auditEventsFrom(`\uFEFF${line()}`)).toHaveLength(1);
    expect(auditEventsFrom('')).toEqual([]);
    expect(auditEventsFrom('\n\n')).toEqual([]);
  });

  it('names the line of text that is not JSON, and says when it is the last one', () => {
    expect(errorOf(`${line()}\n{"kind":"Event",\n${line()}`, 'audit.log').message).toMatch(/^audit\.log:2: not valid JSON: /);
    expect(errorOf(`${line()}\n${line().slice(0, 40)}\n`, 'audit.log').message).toMatch(
      /^audit\.log:2: not valid JSON: .*\(the last line: was the log still being written\?\)/,
    );
  });

  it('refuses the legacy log format with a hint', () => {
    const error = errorOf('2026-11-21T23:38:31.402118Z AUDIT: id="x" stage="ResponseComplete" ip="127.0.0.1" method="create"', 'audit.log');
    expect(error.message).toMatch(/^audit\.log:1: not a JSON audit event: /);
    expect(error.hint).toBe('write the audit log with --audit-log-format=json (the default)');
  });

  it('names the line and the member of an event that is not an audit.k8s.io/v1 Event', () => {
    expect(errorOf(`${line()}\n${line({ kind: 'Pod' })}`).message).toBe('audit log:2: kind: expected "Event", got "Pod"');
    expect(errorOf(line({ apiVersion: 'audit.k8s.io/v1beta1' })).message).toMatch(
      /^audit log:1: apiVersion: expected "audit\.k8s\.io\/v1", got "audit\.k8s\.io\/v1beta1"/,
    );
    expect(errorOf(line({ auditID: undefined })).message).toBe('audit log:1: auditID: Required value');
    expect(errorOf(line({ verb: '' })).message).toBe('audit log:1: verb: Required value');
    expect(errorOf(line({ level: 'Everything' })).message).toBe(
      'audit log:1: level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    );
    expect(errorOf(line({ stage: 'Done' })).message).toMatch(/^audit log:1: stage: Unsupported value: "Done"/);
    expect(errorOf(line({ objectRef: 'pods' })).message).toBe('audit log:1: objectRef: expected an object');
    expect(errorOf('[1, 2]').message).toBe('audit log:1: expected an audit.k8s.io/v1 Event object');
  });
});

describe('auditEventsFrom: an EventList document', () => {
  const list = (items: unknown[], extra: Record<string, unknown> = {}) => ({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items, ...extra });

  it('reads its items, pretty-printed or on one line', () => {
    const items = [JSON.parse(line()), JSON.parse(line({ auditID: 'a-2' }))];
    expect(auditEventsFrom(JSON.stringify(list(items), null, 2)).map((e) => e.auditID)).toEqual(['a-1', 'a-2']);
    expect(auditEventsFrom(JSON.stringify(list(items))).map((e) => e.auditID)).toEqual(['a-1', 'a-2']);
  });

  it('accepts a single event spread over lines', () => {
    expect(auditEventsFrom(JSON.stringify(JSON.parse(line()), null, 2)).map((e) => e.auditID)).toEqual(['a-1']);
  });

  it('names the item in error', () => {
    const items = [JSON.parse(line()), JSON.parse(line({ stage: 'Later' }))];
    expect(errorOf(JSON.stringify(list(items), null, 2), 'batch.json').message).toMatch(/^batch\.json: items\[1\]: stage: Unsupported value: "Later"/);
    expect(errorOf(JSON.stringify(list([], { items: undefined })), 'batch.json').message).toBe('batch.json: items: expected a list of audit.k8s.io/v1 Events');
  });
});
