/**
 * Every check pod-security-admission registers at v1.36 (policy.DefaultChecks()). The order here does not
 * matter: the registry orders them by ID, as upstream does.
 */
import type { Check } from '../check';
import { allowPrivilegeEscalation } from './allow-privilege-escalation';
import { appArmorProfile } from './app-armor-profile';
import { capabilitiesBaseline } from './capabilities-baseline';
import { capabilitiesRestricted } from './capabilities-restricted';
import { hostNamespaces } from './host-namespaces';
import { hostPathVolumes } from './host-path-volumes';
import { hostPorts } from './host-ports';
import { hostProbesAndHostLifecycle } from './host-probes-and-host-lifecycle';
import { privileged } from './privileged';
import { procMount } from './proc-mount';
import { procMountRestricted } from './proc-mount-restricted';
import { restrictedVolumes } from './restricted-volumes';
import { runAsNonRoot } from './run-as-non-root';
import { runAsUser } from './run-as-user';
import { seLinuxOptions } from './se-linux-options';
import { seccompProfileBaseline } from './seccomp-profile-baseline';
import { seccompProfileRestricted } from './seccomp-profile-restricted';
import { sysctls } from './sysctls';
import { windowsHostProcess } from './windows-host-process';

export const DEFAULT_CHECKS: readonly Check[] = [
  appArmorProfile,
  capabilitiesBaseline,
  hostNamespaces,
  hostPathVolumes,
  hostPorts,
  hostProbesAndHostLifecycle,
  privileged,
  procMount,
  seLinuxOptions,
  seccompProfileBaseline,
  sysctls,
  windowsHostProcess,
  allowPrivilegeEscalation,
  capabilitiesRestricted,
  procMountRestricted,
  restrictedVolumes,
  runAsNonRoot,
  runAsUser,
  seccompProfileRestricted,
];
