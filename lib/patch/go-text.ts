/**
 * The Go runtime pieces whose text reaches users through evanphx/json-patch v4 errors: error wrapping,
 * strconv.Atoi. kube-apiserver passes these strings through verbatim.
 */
import { goQuote } from '../go/strconv';

/** A Go `error`, carried as the text its Error() method returns. */
export class GoError extends Error {}

/**
 * A Go runtime panic inside json-patch. It is not an error the library returns: in kube-apiserver it unwinds
 * to the HTTP panic-recovery filter instead of becoming an `Internal error occurred: …` Status.
 */
export class GoPanic extends Error {}

/** The sentinel errors of patch.go (`ErrMissing`, `ErrInvalidIndex`, `ErrTestFailed`). */
export const ERR_MISSING = 'missing value';
export const ERR_INVALID_INDEX = 'invalid index referenced';
export const ERR_TEST_FAILED = 'test failed';

/** What a nil *lazyNode dereference panics with. */
export const NIL_DEREFERENCE = 'runtime error: invalid memory address or nil pointer dereference';

/** `fmt.Errorf("<message>: %w", ErrMissing)`, the commonest error shape in patch.go. */
export function missingValue(message: string): GoError {
  return new GoError(`${message}: ${ERR_MISSING}`);
}

/** Runs `run`; a Go error it raises becomes `fmt.Errorf("<message>: %w", err)`. */
export function wrapFailure<T>(message: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GoError) throw new GoError(`${message}: ${error.message}`);
    throw error;
  }
}

/** Runs `run`; a Go error it raises is dropped for `replacement`, as patch.go does where it ignores `err`. */
export function replaceFailure<T>(replacement: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GoError) throw new GoError(replacement);
    throw error;
  }
}

const MAX_UINT64 = (1n << 64n) - 1n;
const INT64_MAGNITUDE = 1n << 63n;

/**
 * strconv.Atoi on a 64-bit platform: an optional sign and decimal digits, so `+1` and `007` are indices
 * too. Errors read `strconv.Atoi: parsing "<s>": invalid syntax` or `…: value out of range`.
 */
export function goAtoi(s: string): bigint {
  const failure = (reason: string) => new GoError(`strconv.Atoi: parsing ${goQuote(s)}: ${reason}`);
  const negative = s.startsWith('-');
  const digits = negative || s.startsWith('+') ? s.slice(1) : s;
  if (digits === '') throw failure('invalid syntax');
  let magnitude = 0n;
  for (const ch of digits) {
    if (ch < '0' || ch > '9') throw failure('invalid syntax');
    magnitude = magnitude * 10n + BigInt(ch.charCodeAt(0) - 48);
    // ParseUint gives up at the first uint64 overflow, before it sees any later non-digit.
    if (magnitude > MAX_UINT64) throw failure('value out of range');
  }
  if (negative ? magnitude > INT64_MAGNITUDE : magnitude >= INT64_MAGNITUDE) throw failure('value out of range');
  return negative ? -magnitude : magnitude;
}
