import type { UserInfo } from '../kube/admission';
import { cloneJson } from '../kube/json';
import { sortedMap } from '../registry/shape';
import type { AuditEvent, AuditUserInfo } from './event';

/**
 * The user admission sees. The impersonation filter replaces the request's user before admission runs
 * and logs the replacement as impersonatedUser (endpoints/filters/impersonation.go), so that one wins;
 * `user` is who authenticated. Members are in authentication/v1 UserInfo's order, empty ones left out
 * (all are omitempty), and extra's keys sorted as Go writes a map.
 */
export function userInfoOf(event: Pick<AuditEvent, 'user' | 'impersonatedUser'>): UserInfo {
  const from: AuditUserInfo = event.impersonatedUser ?? event.user ?? {};
  const extra = from.extra && Object.keys(from.extra).length > 0 ? sortedMap(cloneJson(from.extra)) : undefined;
  return {
    ...(from.username ? { username: from.username } : {}),
    ...(from.uid ? { uid: from.uid } : {}),
    ...(from.groups && from.groups.length > 0 ? { groups: [...from.groups] } : {}),
    ...(extra ? { extra } : {}),
  };
}
