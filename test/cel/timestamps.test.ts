// CEL's timestamp accessors in every time zone form cel-go accepts (google/cel-go common/types/timestamp.go
// `timeZone`: time.LoadLocation names, and `<hours>:<minutes>` fixed offsets read by strconv.Atoi), and
// the errors for the others, evaluated as a webhook's matchCondition is.
import { createHarness, objects, review } from '../../lib';
import { loadCel } from '../../lib/cel';
import { evaluateProgram } from '../../lib/cel/evaluate';
import { parseAndCheck } from '../../lib/cel/compile';
import { matchConditionsEnvironment } from '../../lib/cel/environment';
import { createPod, evaluateOne, issueOf, valueOf } from './helpers';

beforeAll(loadCel);

const intOf = valueOf;

/** The error a matchCondition reading the int expression reports after `resulted in error: `. */
function errorOf(expression: string): string | undefined {
  return evaluateOne(`${expression} == 0`).error?.message?.split(' resulted in error: ')[1];
}

// 2024-03-10T07:30:15.250Z: an hour before New York leaves EST (07:00Z) and half an hour before Chicago does (08:00Z).
const at = "timestamp('2024-03-10T07:30:15.250Z')";

describe('timestamp accessors in a time zone', () => {
  it.each([
    ['UTC', [2024n, 2n, 10n, 9n, 0n, 69n, 7n, 30n, 15n, 250n]],
    ['', [2024n, 2n, 10n, 9n, 0n, 69n, 7n, 30n, 15n, 250n]],
    ['America/New_York', [2024n, 2n, 10n, 9n, 0n, 69n, 3n, 30n, 15n, 250n]],
    ['US/Central', [2024n, 2n, 10n, 9n, 0n, 69n, 1n, 30n, 15n, 250n]],
    ['Asia/Kolkata', [2024n, 2n, 10n, 9n, 0n, 69n, 13n, 0n, 15n, 250n]],
    ['Asia/Calcutta', [2024n, 2n, 10n, 9n, 0n, 69n, 13n, 0n, 15n, 250n]],
    ['Etc/GMT+10', [2024n, 2n, 9n, 8n, 6n, 68n, 21n, 30n, 15n, 250n]],
    ['+01:00', [2024n, 2n, 10n, 9n, 0n, 69n, 8n, 30n, 15n, 250n]],
    ['01:00', [2024n, 2n, 10n, 9n, 0n, 69n, 8n, 30n, 15n, 250n]],
    ['-08:00', [2024n, 2n, 9n, 8n, 6n, 68n, 23n, 30n, 15n, 250n]],
    ['-08:30', [2024n, 2n, 9n, 8n, 6n, 68n, 23n, 0n, 15n, 250n]],
    ['-00:30', [2024n, 2n, 10n, 9n, 0n, 69n, 7n, 0n, 15n, 250n]],
    ['+16:45', [2024n, 2n, 11n, 10n, 1n, 70n, 0n, 15n, 15n, 250n]],
  ])('%j reads every accessor on its wall clock', (zone, expected) => {
    const accessors = [
      'getFullYear',
      'getMonth',
      'getDate',
      'getDayOfMonth',
      'getDayOfWeek',
      'getDayOfYear',
      'getHours',
      'getMinutes',
      'getSeconds',
      'getMilliseconds',
    ];
    const got = accessors.map((name) => intOf(`${at}.${name}('${zone}')`));
    expect(got).toEqual(expected);
  });

  it('reads the zone through a dyn receiver, as a policy reads a field of the object', () => {
    const input = createPod();
    (input.object as { metadata: Record<string, unknown> }).metadata.creationTimestamp = '2024-03-10T07:30:15Z';
    expect(evaluateOne("timestamp(object.metadata.creationTimestamp).getDate('01:00') == 10", input).matches).toBe(true);
    expect(evaluateOne("timestamp(object.metadata.creationTimestamp).getHours('-08:00') == 23", input).matches).toBe(true);
    expect(evaluateOne("[timestamp(object.metadata.creationTimestamp)].all(t, t.getDayOfWeek('-08:00') == 6)", input).matches).toBe(true);
  });

  it('before year 1 in a zone west of UTC, the year is 0 (1 BC, a leap year), as Go counts it', () => {
    expect(intOf("timestamp('0001-01-01T00:00:00Z').getFullYear('-01:00')")).toBe(0n);
    expect(intOf("timestamp('0001-01-01T00:00:00Z').getDayOfYear('-01:00')")).toBe(365n);
    expect(intOf("timestamp('0050-03-01T00:00:00Z').getDayOfYear()")).toBe(59n);
  });

  it('a zone Go does not know is an expression error with Go’s text, never a crash', () => {
    expect(errorOf(`${at}.getDate('Mars/Olympus')`)).toBe('unknown time zone Mars/Olympus');
    // Go reads zone files by name: case matters, and a bare offset is no name.
    expect(errorOf(`${at}.getHours('america/new_york')`)).toBe('unknown time zone america/new_york');
    expect(errorOf(`${at}.getHours('+0100')`)).toBe('unknown time zone +0100');
    expect(errorOf(`${at}.getMilliseconds('Nowhere')`)).toBe('unknown time zone Nowhere');
    expect(errorOf(`${at}.getHours('../etc/passwd')`)).toBe('time: invalid location name');
    expect(errorOf(`${at}.getHours('x:00')`)).toBe('strconv.Atoi: parsing "x": invalid syntax');
    expect(errorOf(`${at}.getHours('01:x')`)).toBe('strconv.Atoi: parsing "x": invalid syntax');
    expect(errorOf(`${at}.getHours(':00')`)).toBe('strconv.Atoi: parsing "": invalid syntax');
    expect(errorOf(`${at}.getHours('01:75')`)).toBe('timezone offset minutes out of range [0, 59]: 01:75');
    expect(errorOf(`${at}.getHours('99999999999999999999:00')`)).toBe('strconv.Atoi: parsing "99999999999999999999": value out of range');
  });

  it('a duration keeps its own accessors', () => {
    expect(intOf("duration('90m').getHours()")).toBe(1n);
    expect(intOf("duration('90m').getMinutes()")).toBe(90n);
  });
});

describe('the evaluation boundary', () => {
  it('any exception inside an evaluation is the expression’s error, worded as cel-go recovers a panic', () => {
    const throwing = (() => {
      throw new RangeError('Invalid time zone specified: 01:00');
    }) as unknown as Parameters<typeof evaluateProgram>[0];
    expect(evaluateProgram(throwing, {})).toEqual({ error: 'internal error: Invalid time zone specified: 01:00', cost: 0 });
  });

  it('through a ValidatingAdmissionPolicy in h.admit: a fixed offset is read, an unknown zone denies with Go’s text', async () => {
    const policy = (name: string, expression: string, failurePolicy = 'Fail') => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy,
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
        validations: [{ expression }],
      },
    });
    const binding = (name: string) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `${name}-binding` },
      spec: { policyName: name, validationActions: ['Deny'] },
    });
    const h = await createHarness({
      seed: 5,
      namespaces: [{ name: 'shop' }],
      manifests: [
        policy('offset', `${at}.getDate('01:00') == 10 && ${at}.getHours('-08:00') == 23`),
        binding('offset'),
        policy('zone', `${at}.getDate('Mars/Olympus') == 10`),
        binding('zone'),
      ] as never[],
    });
    try {
      const result = await h.admit(review.create(objects.pod({ name: 'web-1', namespace: 'shop' }, { seed: 3 })));
      expect(result.status).toMatchObject({
        code: 422,
        message: `pods "web-1" is forbidden: ValidatingAdmissionPolicy 'zone' with binding 'zone-binding' denied request: expression '${at}.getDate('Mars/Olympus') == 10' resulted in error: unknown time zone Mars/Olympus`,
      });
    } finally {
      await h.close();
    }
  });
});

describe('duration + timestamp', () => {
  // cel-go declares `_+_` for (duration, timestamp) → timestamp (overloads.AddDurationTimestamp), as for
  // (timestamp, duration). cel-js's table types the first as a duration; the harness types it as cel-go does
  // (lib/cel/result-types.ts).
  it('timestamp + duration is a timestamp', () => {
    expect(valueOf("string(timestamp('2023-01-01T00:00:00Z') + duration('1h'))")).toBe('2023-01-01T01:00:00Z');
  });

  it('duration + timestamp is the same timestamp, as in cel-go', () => {
    expect(valueOf("string(duration('1h') + timestamp('2023-01-01T00:00:00Z'))")).toBe('2023-01-01T01:00:00Z');
    expect(valueOf("duration('24h') + timestamp('2023-01-01T00:00:00Z') == timestamp('2023-01-02T00:00:00Z')")).toBe(true);
  });

  it('duration + timestamp is typed a timestamp: its accessors check, a duration’s do not apply', () => {
    expect(parseAndCheck("duration('1h') + timestamp('2023-01-01T00:00:00Z')", matchConditionsEnvironment())).toMatchObject({
      type: 'google.protobuf.Timestamp',
    });
    expect(valueOf("(duration('1h') + timestamp('2023-01-01T00:00:00Z')).getHours()")).toBe(1n);
    expect(valueOf("(duration('90m') + timestamp('2023-01-01T00:00:00Z')).getMinutes('+01:00')")).toBe(30n);
    // A timestamp minus a timestamp is a duration in both libraries, so the sum's type is what decides.
    expect(valueOf("duration('1h') + timestamp('2023-01-01T00:00:00Z') - timestamp('2023-01-01T00:00:00Z') == duration('1h')")).toBe(true);
    expect(issueOf("(duration('1h') + timestamp('2023-01-01T00:00:00Z')) + duration('1h') + duration('1h') > 1")).toMatch(
      /found no matching overload for '_>_' applied to '\(timestamp, int\)'/,
    );
  });

  it('the sum keeps the offset its timestamp was written with, in either order', () => {
    expect(valueOf("string(duration('1h') + timestamp('2023-01-01T00:00:00+02:00'))")).toBe('2023-01-01T01:00:00+02:00');
    expect(valueOf("string(timestamp('2023-01-01T00:00:00+02:00') + duration('1h'))")).toBe('2023-01-01T01:00:00+02:00');
  });
});
