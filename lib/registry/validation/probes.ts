/**
 * Probes and lifecycle hooks (core validation validateProbe, validateLivenessProbe,
 * validateReadinessProbe, validateStartupProbe, validateLifecycle, validateHandler and the actions).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { listOf, numberOf, objectOf, optionalNumber, stringOf, valueOf } from './access';
import { forbidden, invalid, json, notSupported, required } from '../../kube/field-errors';
import { httpHeaderNameErrors, portNameErrors, portNumberErrors } from '../../kube/value-formats';
import { nonNegative } from './numbers';
import type { Path } from '../../kube/field-path';

/** ValidatePortNumOrName: an intstr port (number or IANA name). */
export function validatePortNumOrName(port: unknown, path: Path): FieldError[] {
  if (typeof port === 'number') return portNumberErrors(port).map((message) => invalid(path, port, message));
  if (typeof port === 'string') return portNameErrors(port).map((message) => invalid(path, port, message));
  return portNumberErrors(0).map((message) => invalid(path, 0, message));
}

const HTTP_SCHEMES = ['HTTP', 'HTTPS'];

function validateHttpGet(action: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (stringOf(action, 'path') === '') errors.push(required(path.child('path')));
  errors.push(...validatePortNumOrName(valueOf(action, 'port'), path.child('port')));
  const scheme = stringOf(action, 'scheme');
  if (!HTTP_SCHEMES.includes(scheme)) errors.push(notSupported(path.child('scheme'), json(scheme), HTTP_SCHEMES));
  for (const header of listOf(action, 'httpHeaders')) {
    const name = stringOf(header, 'name');
    errors.push(...httpHeaderNameErrors(name).map((message) => invalid(path.child('httpHeaders'), name, message)));
  }
  return errors;
}

type HandlerKind = 'exec' | 'httpGet' | 'tcpSocket' | 'grpc' | 'sleep';

/** validateHandler: exactly one action, checked in upstream's order. */
function validateHandler(handler: JsonObject, kinds: readonly HandlerKind[], gracePeriod: number | undefined, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    const action = objectOf(handler, kind);
    if (!action) continue;
    const at = path.child(kind);
    if (count > 0) {
      errors.push(forbidden(at, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    switch (kind) {
      case 'exec':
        if ((Array.isArray(action.command) ? action.command.length : 0) === 0) errors.push(required(at.child('command')));
        break;
      case 'httpGet':
        errors.push(...validateHttpGet(action, at));
        break;
      case 'tcpSocket':
        errors.push(...validatePortNumOrName(valueOf(action, 'port'), at.child('port')));
        break;
      case 'grpc':
        errors.push(...validatePortNumOrName(numberOf(action, 'port'), at.child('port')));
        break;
      case 'sleep': {
        // PodLifecycleSleepActionAllowZero is on by default in v1.36: zero seconds are allowed.
        const seconds = numberOf(action, 'seconds');
        if (gracePeriod !== undefined && (seconds < 0 || seconds > gracePeriod)) {
          errors.push(invalid(at, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`));
        }
        break;
      }
    }
  }
  if (count === 0) errors.push(required(path, 'must specify a handler type'));
  return errors;
}

const PROBE_HANDLERS: readonly HandlerKind[] = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS: readonly HandlerKind[] = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

function validateProbe(probe: JsonObject, gracePeriod: number | undefined, path: Path): FieldError[] {
  const errors = validateHandler(probe, PROBE_HANDLERS, gracePeriod, path);
  for (const key of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errors.push(...nonNegative(numberOf(probe, key), path.child(key)));
  }
  const grace = optionalNumber(probe, 'terminationGracePeriodSeconds');
  if (grace !== undefined && grace <= 0) errors.push(invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  return errors;
}

/** validateLivenessProbe (also startup probes: same rule). */
export function validateLivenessProbe(probe: JsonObject | undefined, gracePeriod: number | undefined, path: Path): FieldError[] {
  if (!probe) return [];
  const errors = validateProbe(probe, gracePeriod, path);
  const success = numberOf(probe, 'successThreshold');
  if (success !== 1) errors.push(invalid(path.child('successThreshold'), success, 'must be 1'));
  return errors;
}

/** validateReadinessProbe. */
export function validateReadinessProbe(probe: JsonObject | undefined, gracePeriod: number | undefined, path: Path): FieldError[] {
  if (!probe) return [];
  const errors = validateProbe(probe, gracePeriod, path);
  const grace = optionalNumber(probe, 'terminationGracePeriodSeconds');
  if (grace !== undefined) errors.push(invalid(path.child('terminationGracePeriodSeconds'), json(grace), 'must not be set for readinessProbes'));
  return errors;
}

/** validateStartupProbe. */
export const validateStartupProbe = validateLivenessProbe;

/** validateLifecycle. */
export function validateLifecycle(lifecycle: JsonObject, gracePeriod: number | undefined, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const postStart = objectOf(lifecycle, 'postStart');
  if (postStart) errors.push(...validateHandler(postStart, LIFECYCLE_HANDLERS, gracePeriod, path.child('postStart')));
  const preStop = objectOf(lifecycle, 'preStop');
  if (preStop) errors.push(...validateHandler(preStop, LIFECYCLE_HANDLERS, gracePeriod, path.child('preStop')));
  return errors;
}
