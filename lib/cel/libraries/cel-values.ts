import { celModule } from '../runtime';

/*
 * cel-js's value classes for uint and google.protobuf.Duration. The package's main entry does not
 * export them (only its `evaluator` subpath does, which runtime.ts does not load), so they are taken
 * from values the loaded library produces.
 */

export interface CelUint {
  readonly value: bigint;
  valueOf(): bigint;
}

export interface CelDuration {
  readonly seconds: bigint;
  readonly nanos: number;
}

interface CelValueClasses {
  UnsignedInt: new (value: bigint) => CelUint;
  Duration: new (seconds: bigint, nanos?: number) => CelDuration;
}

let classes: CelValueClasses | undefined;

export function celValueClasses(): CelValueClasses {
  if (!classes) {
    const env = new (celModule().Environment)();
    const uint: unknown = env.evaluate('1u');
    const duration: unknown = env.evaluate("duration('1s')");
    classes = {
      UnsignedInt: (uint as { constructor: CelValueClasses['UnsignedInt'] }).constructor,
      Duration: (duration as { constructor: CelValueClasses['Duration'] }).constructor,
    };
  }
  return classes;
}

export function isUint(value: unknown): value is CelUint {
  return value instanceof celValueClasses().UnsignedInt;
}

export function isDuration(value: unknown): value is CelDuration {
  return value instanceof celValueClasses().Duration;
}
