import type { Json, JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell, type Row, type RowCondition } from './columns';
import { integer, list, optional, text } from './fields';
import { humanDuration, instantOf } from './human-duration';
import type { Printer } from './printer';

/*
 * printPod (kubernetes pkg/printers/internalversion/printers.go): READY as ready/total containers (restartable
 * init containers, i.e. sidecars, count), STATUS from the phase, the init containers' and then the containers'
 * states, RESTARTS with the age of the last restart, and the wide columns IP, NODE, NOMINATED NODE, READINESS GATES.
 */

interface Tally {
  reason: string;
  restarts: number;
  lastRestart: number | undefined;
  ready: number;
}

const later = (a: number | undefined, b: number | undefined): number | undefined => (b !== undefined && (a === undefined || b > a) ? b : a);
const finishedAt = (status: Json): number | undefined => instantOf(optional(status, 'lastState', 'terminated', 'finishedAt'));
const isSidecar = (container: Json | undefined): boolean => text(container, 'restartPolicy') === 'Always';

/** The reason a terminated container gives: its reason, else `Signal:N` or `ExitCode:N`. */
function terminatedReason(terminated: Json, prefix: string): string {
  const reason = text(terminated, 'reason');
  if (reason) return prefix + reason;
  const signal = integer(terminated, 'signal');
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${integer(terminated, 'exitCode')}`;
}

/** The init containers: restarts, sidecars' readiness, and the `Init:` status while one has not finished. */
function tallyInitContainers(pod: JsonObject, tally: Tally): { initializing: boolean; sidecarRestarts: number; sidecarLastRestart: number | undefined } {
  const specs = new Map(list(pod, 'spec', 'initContainers').map((container) => [text(container, 'name'), container]));
  let sidecarRestarts = 0;
  let sidecarLastRestart: number | undefined;
  const statuses = list(pod, 'status', 'initContainerStatuses');
  for (const [index, status] of statuses.entries()) {
    const sidecar = isSidecar(specs.get(text(status, 'name')));
    tally.restarts += integer(status, 'restartCount');
    tally.lastRestart = later(tally.lastRestart, finishedAt(status));
    if (sidecar) {
      sidecarRestarts += integer(status, 'restartCount');
      sidecarLastRestart = later(sidecarLastRestart, finishedAt(status));
    }
    const terminated = optional(status, 'state', 'terminated');
    const waitingReason = text(status, 'state', 'waiting', 'reason');
    if (terminated !== undefined && integer(terminated, 'exitCode') === 0) continue;
    if (sidecar && optional(status, 'started') === true) {
      if (optional(status, 'ready') === true) tally.ready++;
      continue;
    }
    if (terminated !== undefined) tally.reason = terminatedReason(terminated, 'Init:');
    else if (waitingReason && waitingReason !== 'PodInitializing') tally.reason = `Init:${waitingReason}`;
    else tally.reason = `Init:${index}/${specs.size}`;
    return { initializing: true, sidecarRestarts, sidecarLastRestart };
  }
  return { initializing: false, sidecarRestarts, sidecarLastRestart };
}

const hasCondition = (pod: JsonObject, type: string): boolean =>
  list(pod, 'status', 'conditions').some((condition) => text(condition, 'type') === type && text(condition, 'status') === 'True');

/** The containers, last to first: the status the first of them (in spec order) with something to say gives. */
function tallyContainers(pod: JsonObject, tally: Tally): void {
  let running = false;
  const statuses = list(pod, 'status', 'containerStatuses');
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i] as Json;
    tally.restarts += integer(status, 'restartCount');
    tally.lastRestart = later(tally.lastRestart, finishedAt(status));
    const waiting = text(status, 'state', 'waiting', 'reason');
    const terminated = optional(status, 'state', 'terminated');
    if (waiting) tally.reason = waiting;
    else if (terminated !== undefined) tally.reason = terminatedReason(terminated, '');
    else if (optional(status, 'ready') === true && optional(status, 'state', 'running') !== undefined) {
      running = true;
      tally.ready++;
    }
  }
  // A pod whose containers include one still running is not Completed.
  if (tally.reason === 'Completed' && running) tally.reason = hasCondition(pod, 'Ready') ? 'Running' : 'NotReady';
}

function podTally(pod: JsonObject): Tally {
  const phase = text(pod, 'status', 'phase');
  const tally: Tally = { reason: text(pod, 'status', 'reason') || phase, restarts: 0, lastRestart: undefined, ready: 0 };
  const gated = list(pod, 'status', 'conditions').some((c) => text(c, 'type') === 'PodScheduled' && text(c, 'reason') === 'SchedulingGated');
  if (gated) tally.reason = 'SchedulingGated';
  const init = tallyInitContainers(pod, tally);
  if (!init.initializing || hasCondition(pod, 'Initialized')) {
    tally.restarts = init.sidecarRestarts;
    tally.lastRestart = init.sidecarLastRestart;
    tallyContainers(pod, tally);
  }
  if (optional(pod, 'metadata', 'deletionTimestamp') !== undefined) {
    if (text(pod, 'status', 'reason') === 'NodeLost') tally.reason = 'Unknown';
    else if (phase !== 'Succeeded' && phase !== 'Failed') tally.reason = 'Terminating';
  }
  return tally;
}

/** READINESS GATES: the gates whose condition is True, of all gates; `<none>` without gates. */
function readinessGates(pod: JsonObject): string {
  const gates = list(pod, 'spec', 'readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = list(pod, 'status', 'conditions');
  const met = gates.filter((gate) => {
    const condition = conditions.find((c) => text(c, 'type') === text(gate, 'conditionType'));
    return condition !== undefined && text(condition, 'status') === 'True';
  }).length;
  return `${met}/${gates.length}`;
}

const COMPLETED: Readonly<Record<string, RowCondition[]>> = {
  Succeeded: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
  Failed: [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }],
};

function podRow(pod: JsonObject, now: number): Row {
  const tally = podTally(pod);
  const sidecars = list(pod, 'spec', 'initContainers').filter(isSidecar).length;
  const total = list(pod, 'spec', 'containers').length + sidecars;
  const restarts =
    tally.restarts !== 0 && tally.lastRestart !== undefined ? `${tally.restarts} (${humanDuration(now - tally.lastRestart)} ago)` : String(tally.restarts);
  // The internal PodStatus the printer reads has podIPs filled from podIP when only that is set (v1 conversion).
  const podIp = text(list(pod, 'status', 'podIPs')[0], 'ip') || text(pod, 'status', 'podIP') || '<none>';
  const cells = [
    nameCell(pod),
    `${tally.ready}/${total}`,
    tally.reason,
    restarts,
    ageCell(pod, now),
    podIp,
    text(pod, 'spec', 'nodeName') || '<none>',
    text(pod, 'status', 'nominatedNodeName') || '<none>',
    readinessGates(pod),
  ];
  const conditions = COMPLETED[text(pod, 'status', 'phase')];
  return conditions ? { cells, conditions } : { cells };
}

export const pods: Printer = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE_COLUMN,
    column('IP', 'string', doc('v1/PodStatus', 'podIP'), { priority: 1 }),
    column('Node', 'string', doc('v1/PodSpec', 'nodeName'), { priority: 1 }),
    column('Nominated Node', 'string', doc('v1/PodStatus', 'nominatedNodeName'), { priority: 1 }),
    column('Readiness Gates', 'string', doc('v1/PodSpec', 'readinessGates'), { priority: 1 }),
  ],
  row: podRow,
};
