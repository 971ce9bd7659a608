/**
 * PodSecurity, the validating admission plugin (plugin/pkg/admission/security/podsecurity/admission.go
 * wrapping staging/src/k8s.io/pod-security-admission/admission/admission.go and response.go), for one
 * request: pods are enforced, workloads' pod templates only warned and audited, namespaces' labels
 * validated (and a tightened enforce level checked against the namespace's existing pods).
 */
import { goAggregate } from '../../go/aggregate';
import { goQuote } from '../../go/strconv';
import type { UserInfo } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { isRecord, jsonEqual } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { badRequest, forbidden, internalError, invalid, type ApiStatus, type FieldError } from '../../kube/status';
import { AUDIT_VIOLATIONS, ENFORCE_POLICY, ERROR, EXEMPT, prefixed } from './audit-annotations';
import {
  exemptNamespace,
  exemptRuntimeClass,
  exemptUser,
  resolveConfiguration,
  type PodSecurityConfiguration,
  type ResolvedConfiguration,
} from './configuration';
import { evaluatePod, violatesMessage, wouldViolateMessage } from './evaluate';
import { compareLevels, levelVersionString, sameLevelVersion, sameVersion } from './level-version';
import { evaluatePodsInNamespace } from './namespace-pods';
import {
  AUDIT_LEVEL_LABEL,
  AUDIT_VERSION_LABEL,
  ENFORCE_LEVEL_LABEL,
  ENFORCE_VERSION_LABEL,
  equivalentPolicies,
  fullyPrivileged,
  policyToEvaluate,
  WARN_LEVEL_LABEL,
  WARN_VERSION_LABEL,
  type Policy,
} from './namespace-policy';
import { podSecurityInvolvement } from './involvement';
import { NIL_OBJECT_ERROR, podConversionError } from './pod-conversion';
import { extractPodTemplate, hasPodSpec } from './pod-spec-extractor';
import { member, stringMap, stringMember } from './pod-json';
import { DEFAULT_EVALUATOR, type Evaluator } from './registry';
import { isSignificantPodUpdate } from './significant-update';

/** The request attributes PodSecurity reads (kube-apiserver's admission.Attributes). */
export type PodSecurityAttributes = Pick<
  AdmissionAttributes,
  'operation' | 'kind' | 'resource' | 'subResource' | 'name' | 'namespace' | 'object' | 'oldObject'
> & {
  userInfo: Pick<UserInfo, 'username'>;
};

export interface PodSecurityRequest {
  attributes: PodSecurityAttributes;
  /**
   * The labels of the Namespace the request is in (`metadata.labels`; `{}` when it has none), or `null`
   * when that Namespace cannot be found. Not read for requests on namespaces themselves.
   */
  namespaceLabels: Readonly<Record<string, string>> | null;
  /** The plugin's PodSecurityConfiguration (defaults, exemptions); none given means kube's defaults. */
  configuration?: PodSecurityConfiguration | ResolvedConfiguration;
  /** The namespace's current pods, checked when a namespace update tightens its enforce level. */
  existingPods?: readonly JsonRecord[];
  /** The check registry (the default one is kube-apiserver v1.36's). */
  evaluator?: Evaluator;
}

export interface PodSecurityDecision {
  allowed: boolean;
  /** The Status the client receives when refused (403 for a violation). */
  status?: ApiStatus;
  /** Warning texts, each sent as a `299 - "<text>"` header. */
  warnings: string[];
  /** Audit annotations, keys already prefixed `pod-security.kubernetes.io/`. */
  auditAnnotations: Record<string, string>;
}

/** What admission.go's responses carry before the plugin turns them into an error, warnings and annotations. */
interface Response {
  allowed: boolean;
  status?: ApiStatus;
  warnings?: string[];
  annotations?: Record<string, string>;
}

const ALLOWED: Response = { allowed: true };
const exempt = (reason: 'namespace' | 'user' | 'runtimeClass'): Response => ({ allowed: true, annotations: { [EXEMPT]: reason } });

interface Context {
  attributes: PodSecurityAttributes;
  config: ResolvedConfiguration;
  evaluator: Evaluator;
}

function isResolved(configuration: PodSecurityConfiguration | ResolvedConfiguration): configuration is ResolvedConfiguration {
  return 'defaultPolicy' in configuration;
}

/** response.go errorResponse: the status, and the same message (with the cause) as the `error` annotation. */
function errorResponse(status: ApiStatus, cause?: string): Response {
  return { allowed: false, status, annotations: { [ERROR]: cause === undefined ? (status.message ?? '') : `${status.message ?? ''}: ${cause}` } };
}

/** `field.ErrorList.ToAggregate().Error()`. */
function aggregateText(errors: readonly FieldError[]): string {
  return goAggregate(errors.map((e) => `${e.field}: ${e.body}`));
}

/** admission.go EvaluatePod: enforce (pods only), audit and warn, with the annotations they leave. */
function evaluate(ctx: Context, policy: Policy, policyErrors: readonly FieldError[], metadata: JsonRecord, spec: JsonRecord, enforce: boolean): Response {
  if (exemptRuntimeClass(ctx.config, spec.runtimeClassName)) return exempt('runtimeClass');
  const annotations: Record<string, string> = {};
  if (policyErrors.length > 0) annotations[ERROR] = `Failed to parse policy: ${aggregateText(policyErrors)}`;
  const response: Response = { allowed: true, annotations };
  if (enforce) {
    annotations[ENFORCE_POLICY] = levelVersionString(policy.enforce);
    const result = evaluatePod(policy.enforce, metadata, spec, ctx.evaluator);
    if (!result.allowed) {
      response.allowed = false;
      response.status = forbidden(ctx.attributes.resource, ctx.attributes.name, violatesMessage(result));
    }
  }
  const audit = evaluatePod(policy.audit, metadata, spec, ctx.evaluator);
  if (!audit.allowed) annotations[AUDIT_VIOLATIONS] = wouldViolateMessage(audit);
  // No warnings on a request already refused.
  if (response.allowed) {
    const warn = evaluatePod(policy.warn, metadata, spec, ctx.evaluator);
    if (!warn.allowed) response.warnings = [wouldViolateMessage(warn)];
  }
  return response;
}

/** The Status the Namespace getter's failure gives (the namespace informer, then a live GET, found nothing). */
const namespaceNotFound = (namespace: string): string => `namespaces ${goQuote(namespace)} not found`;

/** admission.go ValidatePod. */
function validatePod(ctx: Context, namespaceLabels: Readonly<Record<string, string>> | null): Response {
  const { attributes, config } = ctx;
  if (exemptNamespace(config, attributes.namespace)) return exempt('namespace');
  if (exemptUser(config, attributes.userInfo.username)) return exempt('user');
  if (namespaceLabels === null) {
    return errorResponse(internalError(`failed to lookup namespace ${goQuote(attributes.namespace)}`), namespaceNotFound(attributes.namespace));
  }
  const { policy, errors } = policyToEvaluate(namespaceLabels, config.defaultPolicy);
  if (errors.length === 0 && fullyPrivileged(policy)) {
    // The shared privileged response names privileged:latest whatever the version labels say.
    return { allowed: true, annotations: { [ENFORCE_POLICY]: 'privileged:latest' } };
  }
  const pod = attributes.object;
  const decodeError = podConversionError(pod, attributes.kind);
  if (decodeError !== undefined || !isRecord(pod)) return errorResponse(badRequest('failed to decode object'), decodeError);
  if (attributes.operation === 'UPDATE') {
    const oldPod = attributes.oldObject;
    const oldDecodeError = podConversionError(oldPod, attributes.kind);
    if (oldDecodeError !== undefined || !isRecord(oldPod)) return errorResponse(badRequest('failed to decode old object'), oldDecodeError);
    if (!isSignificantPodUpdate(pod, oldPod)) return ALLOWED;
  }
  return evaluate(ctx, policy, errors, member(pod, 'metadata') ?? {}, member(pod, 'spec') ?? {}, true);
}

/** admission.go ValidatePodController: the workload's template is audited and warned about, never refused. */
function validatePodController(ctx: Context, namespaceLabels: Readonly<Record<string, string>> | null): Response {
  const { attributes, config } = ctx;
  if (exemptNamespace(config, attributes.namespace)) return exempt('namespace');
  if (exemptUser(config, attributes.userInfo.username)) return exempt('user');
  // Errors here never refuse the workload: they only leave an annotation.
  if (namespaceLabels === null) {
    return {
      allowed: true,
      annotations: { [ERROR]: `failed to lookup namespace ${goQuote(attributes.namespace)}: ${namespaceNotFound(attributes.namespace)}` },
    };
  }
  const { policy, errors } = policyToEvaluate(namespaceLabels, config.defaultPolicy);
  if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return ALLOWED;
  const object = attributes.object;
  if (!isRecord(object)) return { allowed: true, annotations: { [ERROR]: `failed to decode object: ${NIL_OBJECT_ERROR}` } };
  const template = extractPodTemplate(attributes.resource, object);
  if (template === undefined) return ALLOWED;
  return evaluate(ctx, policy, errors, template.metadata, template.spec, false);
}

/** admission.go exemptNamespaceWarning: an exempt namespace whose labels ask for more than privileged. */
function exemptNamespaceWarning(ctx: Context, namespace: string, policy: Policy, labels: Readonly<Record<string, string>>): string | undefined {
  if (fullyPrivileged(policy) || equivalentPolicies(policy, ctx.config.defaultPolicy)) return undefined;
  const has = (label: string): boolean => Object.hasOwn(labels, label);
  const parts: string[] = [];
  if (policy.enforce.level !== 'privileged' && (has(ENFORCE_LEVEL_LABEL) || has(ENFORCE_VERSION_LABEL)))
    parts.push(`enforce=${levelVersionString(policy.enforce)}`);
  if (policy.audit.level !== 'privileged' && (has(AUDIT_LEVEL_LABEL) || has(AUDIT_VERSION_LABEL))) parts.push(`audit=${levelVersionString(policy.audit)}`);
  if (policy.warn.level !== 'privileged' && (has(WARN_LEVEL_LABEL) || has(WARN_VERSION_LABEL))) parts.push(`warn=${levelVersionString(policy.warn)}`);
  return `namespace ${goQuote(namespace)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`;
}

/** admission.go ValidateNamespace: labels must parse; a tightened enforce level warns about existing pods. */
function validateNamespace(ctx: Context, existingPods: readonly JsonRecord[]): Response {
  const { attributes, config } = ctx;
  const namespace = attributes.object;
  if (!isRecord(namespace)) return errorResponse(badRequest('failed to decode object'), NIL_OBJECT_ERROR);
  const labels = stringMap(member(namespace, 'metadata'), 'labels');
  const name = stringMember(member(namespace, 'metadata'), 'name');
  const { policy, errors } = policyToEvaluate(labels, config.defaultPolicy);
  const refuse = (): Response => ({ allowed: false, status: invalid({ group: attributes.kind.group, kind: attributes.kind.kind }, attributes.name, errors) });
  const exemptWarning = (): Response | undefined => {
    if (!exemptNamespace(config, attributes.namespace)) return undefined;
    const warning = exemptNamespaceWarning(ctx, name, policy, labels);
    return warning === undefined ? ALLOWED : { allowed: true, warnings: [warning] };
  };

  if (attributes.operation === 'CREATE') {
    if (errors.length > 0) return refuse();
    return exemptWarning() ?? ALLOWED;
  }
  if (attributes.operation !== 'UPDATE') return ALLOWED;
  const old = attributes.oldObject;
  if (!isRecord(old)) return errorResponse(badRequest('failed to decode  old object'), NIL_OBJECT_ERROR);
  const previous = policyToEvaluate(stringMap(member(old, 'metadata'), 'labels'), config.defaultPolicy);
  // Invalid labels are refused only when they changed: a namespace already carrying them stays updatable.
  if (errors.length > 0 && (previous.errors.length === 0 || !jsonEqual(errors, previous.errors))) return refuse();
  // Existing pods are only checked when the enforce level got stricter (or its version changed).
  if (sameLevelVersion(policy.enforce, previous.policy.enforce)) return ALLOWED;
  if (policy.enforce.level === 'privileged') return ALLOWED;
  if (sameVersion(policy.enforce.version, previous.policy.enforce.version) && compareLevels(policy.enforce.level, previous.policy.enforce.level) < 1)
    return ALLOWED;
  const exempted = exemptWarning();
  if (exempted !== undefined) return exempted;
  return { allowed: true, warnings: evaluatePodsInNamespace(name, policy.enforce, existingPods, config, ctx.evaluator) };
}

/**
 * `Plugin.Validate`'s error: `admission.NewForbidden(attributes, "Not allowed by PodSecurity")`, with
 * the library's message, reason, details and code laid over it where the library set them.
 */
function pluginStatus(attributes: PodSecurityAttributes, status: ApiStatus): ApiStatus {
  const metadata = isRecord(attributes.object) ? member(attributes.object, 'metadata') : undefined;
  const name = attributes.name || stringMember(metadata, 'name') || stringMember(metadata, 'generateName') || 'Unknown';
  const base = forbidden(attributes.resource, name, 'Not allowed by PodSecurity');
  return { ...base, ...status, details: status.details ?? base.details };
}

/**
 * The PodSecurity plugin's decision on one request. Only CREATE and UPDATE of pods, namespaces and the
 * workload resources (ReplicationController, PodTemplate, ReplicaSet, Deployment, StatefulSet, DaemonSet,
 * Job, CronJob) are looked at; everything else is allowed untouched.
 */
export function podSecurityAdmit(request: PodSecurityRequest): PodSecurityDecision {
  const { attributes } = request;
  const configuration = request.configuration ?? {};
  const ctx: Context = {
    attributes,
    config: isResolved(configuration) ? configuration : resolveConfiguration(configuration),
    evaluator: request.evaluator ?? DEFAULT_EVALUATOR,
  };
  const { group, resource } = attributes.resource;
  let response: Response = ALLOWED;
  // podSecurityInvolvement leaves out the subresources each Validate* ignores first.
  if (podSecurityInvolvement(attributes).involved) {
    if (group === '' && resource === 'namespaces') response = validateNamespace(ctx, request.existingPods ?? []);
    else if (group === '' && resource === 'pods') response = validatePod(ctx, request.namespaceLabels);
    else if (hasPodSpec(attributes.resource)) response = validatePodController(ctx, request.namespaceLabels);
  }
  return {
    allowed: response.allowed,
    ...(response.allowed || response.status === undefined ? {} : { status: pluginStatus(attributes, response.status) }),
    warnings: response.warnings ?? [],
    auditAnnotations: prefixed(response.annotations ?? {}),
  };
}
