import type { Status } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { authorize, type AuthorizationAttributes, type Authorizer } from '../../authz/authorizer';
import { isRecord, jsonEqual } from '../../kube/json';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { admissionForbidden } from '../../kube/status';
import { acts, notInvolved, type Involvement } from '../involved';
import type { PluginAttributes } from '../plugin';

// Hand-written after plugin/pkg/admission/gc/gc_admission.go.

/** OwnerReferencesPermissionEnforcement acts on creates and updates of anything but pods/status. */
export function ownerReferencesPermissionEnforcementInvolvement(attributes: PluginAttributes): Involvement {
  if (attributes.resource.group === '' && attributes.resource.resource === 'pods' && attributes.subResource === 'status')
    return notInvolved('pods/status is exempt');
  if (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE') return notInvolved('handles only creates and updates');
  return acts(
    "a change of ownerReferences needs delete permission on the object (not on create); a new blockOwnerDeletion needs update on the owner's finalizers",
  );
}

/** The resources a kind may be (the RESTMapper's RESTMappings); none when the kind is unknown. */
export type KindResources = (apiVersion: string, kind: string) => { group: string; resource: string }[];

const ownerReferences = (object: unknown): readonly JsonRecord[] =>
  isRecord(object) ? listAt(objectAt(object as JsonRecord, 'metadata'), 'ownerReferences') : [];

/** isChangingOwnerReference: a create with any, or an update that changes the list. */
function changesOwnerReferences(object: unknown, oldObject: unknown): boolean {
  const now = ownerReferences(object);
  if (!isRecord(oldObject)) return now.length > 0;
  return !jsonEqual(now, ownerReferences(oldObject));
}

/** newBlockingOwnerDeletionRefs: references now blocking their owner's deletion that did not before (by uid). */
function newBlockingReferences(object: unknown, oldObject: unknown): JsonRecord[] {
  const blocking = (refs: readonly JsonRecord[]) => refs.filter((ref) => ref.blockOwnerDeletion === true);
  const before = new Set(blocking(ownerReferences(oldObject)).map((ref) => stringAt(ref, 'uid')));
  return blocking(ownerReferences(object)).filter((ref) => !before.has(stringAt(ref, 'uid')));
}

/** A denied check's `%v, %v`: the authorizer's reason and its error (`<nil>` without one). */
const denial = (result: { reason?: string; error?: string }): string => `${result.reason ?? ''}, ${result.error ?? '<nil>'}`;

/**
 * OwnerReferencesPermissionEnforcement (off by default), in the validation phase after
 * PodTolerationRestriction: changing an object's ownerReferences on an update needs permission to
 * delete the object (a create never does: its creator could have not created it), and a reference
 * newly setting blockOwnerDeletion needs permission to update the owner's `finalizers` subresource.
 * Refusals are 403s whose text ends with the authorizer's reason and error (`: , <nil>` from RBAC).
 * pods/status is exempt. It never mutates.
 */
export function ownerReferencesPermissionEnforcementValidate(
  attributes: AdmissionAttributes,
  authorizer: Authorizer,
  kindResources: KindResources,
): Status | undefined {
  if (!ownerReferencesPermissionEnforcementInvolvement(attributes).involved) return undefined;
  if (!changesOwnerReferences(attributes.object, attributes.oldObject)) return undefined;
  const record = (fields: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({
    user: attributes.userInfo,
    verb: '',
    group: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: '',
    ...fields,
  });
  const refuse = (cause: string) => admissionForbidden(attributes, cause);
  if (attributes.operation !== 'CREATE') {
    const { group, resource } = attributes.resource;
    const result = authorize(
      authorizer,
      record({ verb: 'delete', namespace: attributes.namespace, group, resource, subresource: attributes.subResource, name: attributes.name }),
    );
    if (result.decision !== 'allow') return refuse(`cannot set an ownerRef on a resource you can't delete: ${denial(result)}`);
  }
  const blocking = newBlockingReferences(attributes.object, attributes.oldObject);
  if (blocking.length === 0) return undefined;
  // One check whether the user may finalize anything spares the lookups.
  if (authorize(authorizer, record({ verb: 'update', group: '*', resource: '*', subresource: 'finalizers', name: '*' })).decision === 'allow') return undefined;
  for (const ref of blocking) {
    const apiVersion = stringAt(ref, 'apiVersion') ?? '';
    const kind = stringAt(ref, 'kind') ?? '';
    const mappings = kindResources(apiVersion, kind);
    if (mappings.length === 0) {
      return refuse(
        `cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion ${apiVersion} Kind ${kind}: no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(apiVersion)}`,
      );
    }
    for (const { group, resource } of mappings) {
      const result = authorize(
        authorizer,
        record({ verb: 'update', namespace: attributes.namespace, group, resource, subresource: 'finalizers', name: stringAt(ref, 'name') ?? '' }),
      );
      if (result.decision !== 'allow')
        return refuse(`cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: ${denial(result)}`);
    }
  }
  return undefined;
}
