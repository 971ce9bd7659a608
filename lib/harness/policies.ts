import type { ManifestSet } from '../config/load';
import { AuditAnnotations } from '../dispatch/annotations';
import type { PolicyContext } from '../dispatch/context';
import { dispatchMutatingPolicies, PolicyReinvocation } from '../dispatch/mutating-policies';
import { dispatchValidatingPolicies } from '../dispatch/validating-policies';
import { AdmissionTrace } from '../dispatch/trace';
import { WarningRecorder } from '../kube/warning-recorder';
import { HarnessError } from '../errors';
import type { Status } from '../kube/admission';
import type { ResourceCatalog } from '../kube/catalog';
import { prepareMutatingPolicies, prepareValidatingPolicies, type PreparedMutatingPolicy, type PreparedValidatingPolicy } from '../policy/prepare';
import { admitResult } from './admit-result';
import type { MockCluster } from './cluster';
import type { HarnessCore } from './core';
import type { HarnessOptions } from './options';
import type { Harness, PolicyHandle } from './types';

/** The admission policies of the manifests, prepared, and what they read of the cluster (undefined when there is none). */
export interface HarnessPolicies {
  validating: PreparedValidatingPolicy[];
  mutating: PreparedMutatingPolicy[];
  context: PolicyContext | undefined;
}

/** Prepares the manifests' ValidatingAdmissionPolicies and MutatingAdmissionPolicies against the cluster's objects (their params). */
export async function preparePolicies(
  manifests: ManifestSet,
  shared: { cluster: MockCluster; catalog: ResourceCatalog; options: HarnessOptions },
): Promise<HarnessPolicies> {
  const { cluster, catalog, options } = shared;
  const validating = await prepareValidatingPolicies(manifests, cluster.objects);
  const mutating = await prepareMutatingPolicies(manifests, cluster.objects);
  const context: PolicyContext | undefined =
    validating.length > 0 || mutating.length > 0
      ? {
          validating,
          mutating,
          namespaces: cluster.namespaces,
          resources: catalog,
          params: cluster.objects,
          namespaceObject: cluster.objects.namespaceObject,
          ...(options.authorizer ? { authorizer: options.authorizer } : {}),
        }
      : undefined;
  return { validating, mutating, context };
}

/** `h.validatingPolicies`, `h.mutatingPolicies` and `h.policy(name)`: one policy evaluated without the rest of the chain. */
export function policyHandles(core: HarnessCore, policies: HarnessPolicies): Pick<Harness, 'validatingPolicies' | 'mutatingPolicies' | 'policy'> {
  const { validating: validatingPolicies, mutating: mutatingPolicies } = policies;
  return {
    validatingPolicies,
    mutatingPolicies,
    policy(name) {
      const validating = validatingPolicies.find((p) => p.policy.metadata.name === name);
      const mutating = mutatingPolicies.find((p) => p.policy.metadata.name === name);
      if ((!validating && !mutating) || !policies.context) {
        const known =
          [...validatingPolicies, ...mutatingPolicies]
            .map((p) => p.policy.metadata.name)
            .sort()
            .join(', ') || '(none in the manifests)';
        throw new HarnessError(
          'POLICY_NOT_FOUND',
          `no ValidatingAdmissionPolicy or MutatingAdmissionPolicy named ${JSON.stringify(name)}; known: ${known}`,
          'pass metadata.name of a policy in the manifests',
        );
      }
      const alone: PolicyContext = { ...policies.context, validating: validating ? [validating] : [], mutating: mutating ? [mutating] : [] };
      return policyAlone(core, name, alone, validating !== undefined);
    },
  };
}

/**
 * The policy with each of its bindings on one request, as the chain would evaluate it: a validating one
 * on the review's object as given, a mutating one on the request as the API decodes it, in one round.
 */
function policyAlone(core: HarnessCore, name: string, alone: PolicyContext, validating: boolean): PolicyHandle {
  const { registry, seed, lifecycle } = core;
  const kind = validating ? 'ValidatingAdmissionPolicy' : 'MutatingAdmissionPolicy';
  return {
    name,
    kind,
    async evaluate(review) {
      lifecycle.assertOpen();
      await registry.ready();
      const trace = new AdmissionTrace(`${review.summary()} · ${kind} ${name} · seed ${seed}`);
      const warnings = new WarningRecorder();
      const annotations = new AuditAnnotations();
      let object = review.attributes.object;
      let status: Status | undefined;
      if (validating) status = dispatchValidatingPolicies(review.attributes, { policies: alone, trace, warnings, annotations });
      else {
        // The request as the API hands it to admission (decoded, defaulted), then the policy's round 0.
        const attributes = registry.requestView(review.attributes);
        const outcome = dispatchMutatingPolicies(
          attributes,
          { policies: alone, trace, registry },
          { round: 0, state: new PolicyReinvocation(), requestReinvocation: () => undefined },
        );
        object = outcome.object;
        status = outcome.rejection;
      }
      return {
        ...admitResult({ object, rejection: status }, { warnings, annotations, trace, seed }),
        matched: trace.steps.length > 0,
        errors: trace.steps.flatMap((step) => step.policy?.errors ?? []),
      };
    },
  };
}
