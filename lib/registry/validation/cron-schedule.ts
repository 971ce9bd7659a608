/**
 * The error text of robfig/cron v3's ParseStandard (parser.go), which CronJob validation reports for a
 * bad `spec.schedule`: five fields (minute hour day-of-month month day-of-week), optional TZ=/CRON_TZ=
 * prefix, or an @descriptor. Returns undefined for a schedule the parser accepts.
 */

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELD_BOUNDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];

class CronError extends Error {}

/** strconv.Atoi's error text. */
function atoiError(text: string): string | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`;
  const n = BigInt(text);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return `strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`;
  return undefined;
}

/** mustParseInt. */
function mustParseInt(text: string): number {
  const problem = atoiError(text);
  if (problem !== undefined) throw new CronError(`failed to parse int from ${text}: ${problem}`);
  const n = Number(text);
  if (n < 0) throw new CronError(`negative number (${n}) not allowed: ${text}`);
  return n;
}

function parseIntOrName(text: string, names: Readonly<Record<string, number>> | undefined): number {
  const named = names?.[text.toLowerCase()];
  return named !== undefined ? named : mustParseInt(text);
}

/** getRange: `*`, `?`, `a`, `a-b`, each optionally `/step`. */
function checkRange(expression: string, bounds: Bounds): void {
  const rangeAndStep = expression.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', bounds.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', bounds.names);
    else throw new CronError(`too many hyphens: ${expression}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? '');
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) {
    throw new CronError(`too many slashes: ${expression}`);
  }
  if (start < bounds.min) throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expression}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expression}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expression}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expression}`);
}

const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration's error text, or undefined. */
function durationError(text: string): string | undefined {
  const quoted = JSON.stringify(text);
  let s = text;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return undefined;
  if (s === '') return `time: invalid duration ${quoted}`;
  while (s !== '') {
    const number = /^([0-9]*)(\.[0-9]*)?/.exec(s);
    const digits = number?.[0] ?? '';
    if (digits === '' || digits === '.') return `time: invalid duration ${quoted}`;
    s = s.slice(digits.length);
    const unit = /^[^0-9.]*/.exec(s)?.[0] ?? '';
    if (unit === '') return `time: missing unit in duration ${quoted}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`;
    s = s.slice(unit.length);
  }
  return undefined;
}

const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Whether Go's time.LoadLocation knows the zone (Node's ICU zone list stands in for the tz database). */
export function isKnownTimeZone(zone: string): boolean {
  if (zone === '' || zone === 'UTC' || zone === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** cron.ParseStandard(schedule): undefined when it parses, else the parser's error text. */
export function cronScheduleError(schedule: string): string | undefined {
  try {
    if (schedule.length === 0) throw new CronError('empty spec string');
    let spec = schedule;
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const space = spec.indexOf(' ');
      const zone = spec.slice(spec.indexOf('=') + 1, space < 0 ? undefined : space);
      if (!isKnownTimeZone(zone)) throw new CronError(`provided bad location ${zone}: unknown time zone ${zone}`);
      spec = space < 0 ? '' : spec.slice(space).trim();
    }
    if (spec.startsWith('@')) {
      if (DESCRIPTORS.has(spec)) return undefined;
      if (spec.startsWith('@every ')) {
        const problem = durationError(spec.slice('@every '.length));
        if (problem !== undefined) throw new CronError(`failed to parse duration ${spec}: ${problem}`);
        return undefined;
      }
      throw new CronError(`unrecognized descriptor: ${spec}`);
    }
    const fields = spec.split(/[\t\n\v\f\r \u0085\u00a0]+/).filter((f) => f !== '');
    if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    fields.forEach((field, i) => {
      const bounds = FIELD_BOUNDS[i] as Bounds;
      for (const expression of field.split(',').filter((e) => e !== '')) checkRange(expression, bounds);
    });
    return undefined;
  } catch (error) {
    if (error instanceof CronError) return error.message;
    throw error;
  }
}
