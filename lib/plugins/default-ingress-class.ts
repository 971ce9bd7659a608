import { objectAt } from '../kube/record';
import { newestDefaultClass } from './default-class';
import { acts, notInvolved, type Involvement } from './involved';
import type { MutationPlugin, PluginAttributes } from './plugin';
import { isRequestFor } from './refusing-plugin';

// networking/v1 AnnotationIsDefaultIngressClass (no beta variant is read here).
const IS_DEFAULT = 'ingressclass.kubernetes.io/is-default-class';
// networking/v1beta1 AnnotationIngressClass: the class an Ingress named before spec.ingressClassName existed.
const LEGACY_CLASS = 'kubernetes.io/ingress.class';

/** DefaultIngressClass acts on Ingress creates. */
export function defaultIngressClassInvolvement(attributes: PluginAttributes): Involvement {
  if (!isRequestFor(attributes, 'CREATE', 'networking.k8s.io', 'ingresses')) return notInvolved('handles only Ingress creates');
  return acts('an Ingress naming no class gets the default IngressClass (if one is marked)');
}

/**
 * DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass), eleventh in the mutation
 * phase: a created Ingress without `spec.ingressClassName` and without the legacy
 * `kubernetes.io/ingress.class` annotation (any value) gets the default IngressClass, the newest when
 * several are marked default; nothing when none is. Reads the cluster's IngressClasses.
 */
export const defaultIngressClass: MutationPlugin = {
  name: 'DefaultIngressClass',
  admit({ attributes, object, cluster }) {
    if (!cluster || !defaultIngressClassInvolvement(attributes).involved) return undefined;
    const spec = objectAt(object, 'spec');
    if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return undefined;
    if (LEGACY_CLASS in objectAt(objectAt(object, 'metadata'), 'annotations')) return undefined;
    const found = newestDefaultClass(cluster.list('networking.k8s.io/v1', 'IngressClass', ''), (a) => a[IS_DEFAULT] === 'true');
    const name = found?.metadata?.name;
    if (name === undefined) return undefined;
    return { ...object, spec: { ...spec, ingressClassName: name } };
  },
};
