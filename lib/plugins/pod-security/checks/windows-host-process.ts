/**
 * windowsHostProcess (baseline, 1.0; policy/check_windowsHostProcess.go): neither the pod nor a container
 * may set `securityContext.windowsOptions.hostProcess=true`.
 */
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { containerName, containers, member, podSecurityContext, securityContext } from '../pod-json';
import { containersSubject } from '../text';

const hostProcess = (context: JsonRecord | undefined): boolean => member(context, 'windowsOptions')?.hostProcess === true;

function windowsHostProcess1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badContainers = containers(podSpec)
    .filter((container) => hostProcess(securityContext(container)))
    .map(containerName);
  const setters: string[] = [];
  if (hostProcess(podSecurityContext(podSpec))) setters.push('pod');
  if (badContainers.length > 0) setters.push(containersSubject(badContainers));
  if (setters.length === 0) return ALLOWED;
  return forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
}

export const windowsHostProcess: Check = {
  id: 'windowsHostProcess',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: windowsHostProcess1_0 }],
};
