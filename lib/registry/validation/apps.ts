/**
 * apps/v1 workloads (pkg/apis/apps/validation/validation.go and the strategies in pkg/registry/apps):
 * Deployment, ReplicaSet, StatefulSet, DaemonSet. On update each strategy also refuses a changed
 * `spec.selector` (apps/v1 and later).
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, listOf, numberOf, objectOf, optionalNumber, stringMapOf, stringOf } from './access';
import { forbidden, invalid, json, notSupported, required, type MarshaledValue } from '../../kube/field-errors';
import { goMap } from '../../go/json-marshal';
import { intOrPercentValue, intOrStringOf, notMoreThan100Percent, validatePositiveIntOrPercent, type IntOrString } from './int-or-percent';
import { isEmptySelector, labelSelectorValue, selectorOf, validateLabelSelector } from './label-selector';
import { validateAnnotations, validateLabels } from './labels';
import { nameIsDnsLabel, nameIsDnsSubdomain } from '../../kube/name-validators';
import { nonNegative } from './numbers';
import { FIELD_IMMUTABLE, metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { validatePodAnnotations } from './pod-annotations';
import { validatePodTemplateSpec } from './pod';
import { semanticEqualAt } from '../equality';

const METADATA = Path.of('metadata');
const SPEC = Path.of('spec');

/** A template's labels as the "selector does not match" error prints them (a nil map is `null`). */
function templateLabelsValue(template: JsonObject): MarshaledValue {
  const labels = stringMapOf(objectOf(template, 'metadata'), 'labels');
  return json(labels ? goMap(labels) : null);
}

/** The selector rules the workloads share: required, valid, not empty. */
function validateWorkloadSelector(spec: JsonObject, kindText: string, path: Path): FieldError[] {
  const selector = objectOf(spec, 'selector');
  if (!selector) return [required(path.child('selector'))];
  const errors = validateLabelSelector(selector, path.child('selector'));
  if (Object.keys(objectOf(selector, 'matchLabels') ?? {}).length + listOf(selector, 'matchExpressions').length === 0) {
    errors.push(invalid(path.child('selector'), json(labelSelectorValue(selector)), `empty selector is invalid for ${kindText}`));
  }
  return errors;
}

/** The template's labels must satisfy the selector (unless it selects everything). */
function selectorMatchesTemplate(spec: JsonObject, path: Path): FieldError[] {
  const selector = selectorOf(objectOf(spec, 'selector'));
  if (!selector || isEmptySelector(selector)) return [];
  const template = objectOf(spec, 'template') ?? {};
  return selector.matches(stringMapOf(objectOf(template, 'metadata'), 'labels'))
    ? []
    : [invalid(path.child('metadata', 'labels'), templateLabelsValue(template), '`selector` does not match template `labels`')];
}

/** ValidatePodTemplateSpecForReplicaSet (Deployments use it too, hence "ReplicaSet" in the message). */
function validateTemplateForReplicaSet(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const template = objectOf(spec, 'template') ?? {};
  const errors = selectorMatchesTemplate(spec, path);
  errors.push(...validatePodTemplateSpec(template, path, { allowPrivileged, resourceIsPod: false }));
  const podSpec = objectOf(template, 'spec') ?? {};
  const restartPolicy = stringOf(podSpec, 'restartPolicy');
  if (restartPolicy !== 'Always') errors.push(notSupported(path.child('spec', 'restartPolicy'), json(restartPolicy), ['Always']));
  if (has(podSpec, 'activeDeadlineSeconds'))
    errors.push(forbidden(path.child('spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  return errors;
}

/** The selector must convert (LabelSelectorAsSelector); when it does not, kube reports it instead of checking the template. */
function templateUnlessBadSelector(spec: JsonObject, path: Path, check: () => FieldError[]): FieldError[] {
  const selector = objectOf(spec, 'selector');
  if (selector && !selectorOf(selector)) return [invalid(path.child('selector'), json(labelSelectorValue(selector)), 'invalid label selector')];
  return check();
}

/** The internal RollingUpdateDeployment / RollingUpdateDaemonSet as json.Marshal prints it. */
function rollingUpdateValue(rolling: JsonObject | undefined): Json {
  if (!rolling) return null;
  return { MaxUnavailable: intOrStringOf(rolling.maxUnavailable), MaxSurge: intOrStringOf(rolling.maxSurge) };
}

/** ValidateRollingUpdateDeployment. */
function validateRollingUpdateDeployment(rolling: JsonObject, path: Path): FieldError[] {
  const maxUnavailable = intOrStringOf(rolling.maxUnavailable);
  const maxSurge = intOrStringOf(rolling.maxSurge);
  const errors = validatePositiveIntOrPercent(maxUnavailable, path.child('maxUnavailable'));
  errors.push(...validatePositiveIntOrPercent(maxSurge, path.child('maxSurge')));
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0)
    errors.push(invalid(path.child('maxUnavailable'), json(maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
  errors.push(...notMoreThan100Percent(maxUnavailable, path.child('maxUnavailable')));
  return errors;
}

/** ValidateDeploymentStrategy. */
function validateDeploymentStrategy(strategy: JsonObject, path: Path): FieldError[] {
  const type = stringOf(strategy, 'type');
  const rolling = objectOf(strategy, 'rollingUpdate');
  switch (type) {
    case 'Recreate':
      return rolling ? [forbidden(path.child('rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate':
      return rolling
        ? validateRollingUpdateDeployment(rolling, path.child('rollingUpdate'))
        : [required(path.child('rollingUpdate'), 'this should be defaulted and never be nil')];
    default:
      return [notSupported(path, json({ Type: type, RollingUpdate: rollingUpdateValue(rolling) }), ['Recreate', 'RollingUpdate'])];
  }
}

/** ValidateDeploymentSpec. */
function validateDeploymentSpec(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors = nonNegative(numberOf(spec, 'replicas'), path.child('replicas'));
  errors.push(...validateWorkloadSelector(spec, 'deployment', path));
  errors.push(...templateUnlessBadSelector(spec, path, () => validateTemplateForReplicaSet(spec, allowPrivileged, path.child('template'))));
  errors.push(...validateDeploymentStrategy(objectOf(spec, 'strategy') ?? {}, path.child('strategy')));
  const minReadySeconds = numberOf(spec, 'minReadySeconds');
  errors.push(...nonNegative(minReadySeconds, path.child('minReadySeconds')));
  const history = optionalNumber(spec, 'revisionHistoryLimit');
  if (history !== undefined) errors.push(...nonNegative(history, path.child('revisionHistoryLimit')));
  const deadline = optionalNumber(spec, 'progressDeadlineSeconds');
  if (deadline !== undefined) {
    errors.push(...nonNegative(deadline, path.child('progressDeadlineSeconds')));
    if (deadline <= minReadySeconds) errors.push(invalid(path.child('progressDeadlineSeconds'), json(deadline), 'must be greater than minReadySeconds'));
  }
  return errors;
}

/** ValidateReplicaSetSpec (its empty-selector text says "deployment", as upstream's does). */
function validateReplicaSetSpec(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors = nonNegative(numberOf(spec, 'replicas'), path.child('replicas'));
  errors.push(...nonNegative(numberOf(spec, 'minReadySeconds'), path.child('minReadySeconds')));
  errors.push(...validateWorkloadSelector(spec, 'deployment', path));
  errors.push(...templateUnlessBadSelector(spec, path, () => validateTemplateForReplicaSet(spec, allowPrivileged, path.child('template'))));
  return errors;
}

/** ValidateRollingUpdateDaemonSet: exactly one of maxUnavailable and maxSurge is non-zero. */
function validateRollingUpdateDaemonSet(rolling: JsonObject, path: Path): FieldError[] {
  const maxUnavailable = intOrStringOf(rolling.maxUnavailable);
  const maxSurge = intOrStringOf(rolling.maxSurge);
  const errors = validatePositiveIntOrPercent(maxUnavailable, path.child('maxUnavailable'));
  errors.push(...validatePositiveIntOrPercent(maxSurge, path.child('maxSurge')));
  errors.push(...notMoreThan100Percent(maxUnavailable, path.child('maxUnavailable')));
  errors.push(...notMoreThan100Percent(maxSurge, path.child('maxSurge')));
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errors.push(invalid(path.child('maxSurge'), json(maxSurge), 'may not be set when maxUnavailable is non-zero'));
  else if (!hasUnavailable && !hasSurge) errors.push(required(path.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  return errors;
}

/** ValidateDaemonSetSpec. A missing selector is reported only through the template labels it cannot match. */
function validateDaemonSetSpec(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const selector = objectOf(spec, 'selector');
  const errors = validateLabelSelector(selector, path.child('selector'));
  const template = objectOf(spec, 'template') ?? {};
  const compiled = selectorOf(selector);
  if (compiled && !compiled.matches(stringMapOf(objectOf(template, 'metadata'), 'labels'))) {
    errors.push(invalid(path.child('template', 'metadata', 'labels'), templateLabelsValue(template), '`selector` does not match template `labels`'));
  }
  if (selector && Object.keys(objectOf(selector, 'matchLabels') ?? {}).length + listOf(selector, 'matchExpressions').length === 0) {
    errors.push(invalid(path.child('selector'), json(labelSelectorValue(selector)), 'empty selector is invalid for daemonset'));
  }
  errors.push(...validatePodTemplateSpec(template, path.child('template'), { allowPrivileged, resourceIsPod: false }));
  const podSpec = objectOf(template, 'spec') ?? {};
  const restartPolicy = stringOf(podSpec, 'restartPolicy');
  if (restartPolicy !== 'Always') errors.push(notSupported(path.child('template', 'spec', 'restartPolicy'), json(restartPolicy), ['Always']));
  if (has(podSpec, 'activeDeadlineSeconds'))
    errors.push(forbidden(path.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errors.push(...nonNegative(numberOf(spec, 'minReadySeconds'), path.child('minReadySeconds')));
  const strategy = objectOf(spec, 'updateStrategy') ?? {};
  const strategyPath = path.child('updateStrategy');
  const type = stringOf(strategy, 'type');
  const rolling = objectOf(strategy, 'rollingUpdate');
  if (type === 'RollingUpdate') {
    if (!rolling) errors.push(required(strategyPath.child('rollingUpdate')));
    else errors.push(...validateRollingUpdateDaemonSet(rolling, strategyPath.child('rollingUpdate')));
  } else if (type !== 'OnDelete') {
    errors.push(notSupported(strategyPath, json({ Type: type, RollingUpdate: rollingUpdateValue(rolling) }), ['RollingUpdate', 'OnDelete']));
  }
  const history = optionalNumber(spec, 'revisionHistoryLimit');
  if (history !== undefined) errors.push(...nonNegative(history, path.child('revisionHistoryLimit')));
  return errors;
}

const PVC_RETENTION = ['Retain', 'Delete'];

/** ValidateStatefulSetSpec. The template's pod spec is not validated for StatefulSets (upstream's TODO). */
function validateStatefulSetSpec(spec: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const management = stringOf(spec, 'podManagementPolicy');
  if (management === '') errors.push(required(path.child('podManagementPolicy')));
  else if (management !== 'OrderedReady' && management !== 'Parallel')
    errors.push(invalid(path.child('podManagementPolicy'), json(management), "must be 'OrderedReady' or 'Parallel'"));
  const strategy = objectOf(spec, 'updateStrategy') ?? {};
  const type = stringOf(strategy, 'type');
  const rolling = objectOf(strategy, 'rollingUpdate');
  const strategyPath = path.child('updateStrategy');
  if (type === '') errors.push(required(strategyPath));
  else if (type === 'OnDelete') {
    if (rolling)
      errors.push(invalid(strategyPath.child('rollingUpdate'), json(statefulRollingValue(rolling)), "only allowed for updateStrategy 'RollingUpdate'"));
  } else if (type === 'RollingUpdate') {
    if (rolling) {
      const at = strategyPath.child('rollingUpdate');
      errors.push(...nonNegative(numberOf(rolling, 'partition'), at.child('partition')));
      if (has(rolling, 'maxUnavailable')) {
        const maxUnavailable: IntOrString = intOrStringOf(rolling.maxUnavailable);
        errors.push(...validatePositiveIntOrPercent(maxUnavailable, at.child('maxUnavailable')));
        if (intOrPercentValue(maxUnavailable) === 0) errors.push(invalid(at.child('maxUnavailable'), json(maxUnavailable), 'cannot be 0'));
        errors.push(...notMoreThan100Percent(maxUnavailable, at.child('maxUnavailable')));
      }
    }
  } else {
    errors.push(
      invalid(strategyPath, json({ Type: type, RollingUpdate: rolling ? statefulRollingValue(rolling) : null }), "must be 'RollingUpdate' or 'OnDelete'"),
    );
  }
  const retention = objectOf(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention) {
    for (const key of ['whenDeleted', 'whenScaled']) {
      const policy = stringOf(retention, key);
      if (!PVC_RETENTION.includes(policy))
        errors.push(notSupported(path.child('persistentVolumeClaimRetentionPolicy').child(key), json(policy), PVC_RETENTION));
    }
  }
  errors.push(...nonNegative(numberOf(spec, 'replicas'), path.child('replicas')));
  errors.push(...nonNegative(numberOf(spec, 'minReadySeconds'), path.child('minReadySeconds')));
  const ordinals = objectOf(spec, 'ordinals');
  if (ordinals) errors.push(...nonNegative(numberOf(ordinals, 'start'), path.child('ordinals.start')));
  errors.push(...validateWorkloadSelector(spec, 'statefulset', path));
  const selector = objectOf(spec, 'selector');
  const template = objectOf(spec, 'template') ?? {};
  if (selector && !selectorOf(selector)) {
    errors.push(invalid(path.child('selector'), json(labelSelectorValue(selector)), ''));
  } else {
    const templatePath = path.child('template');
    errors.push(...selectorMatchesTemplate(spec, templatePath));
    const meta = objectOf(template, 'metadata') ?? {};
    errors.push(...validateLabels(stringMapOf(meta, 'labels'), templatePath.child('labels')));
    errors.push(...validateAnnotations(stringMapOf(meta, 'annotations'), templatePath.child('annotations')));
    errors.push(...validatePodAnnotations(stringMapOf(meta, 'annotations'), objectOf(template, 'spec') ?? {}, templatePath.child('annotations')));
  }
  const podSpec = objectOf(template, 'spec') ?? {};
  const restartPolicy = stringOf(podSpec, 'restartPolicy');
  if (restartPolicy !== 'Always') errors.push(notSupported(path.child('template', 'spec', 'restartPolicy'), json(restartPolicy), ['Always']));
  if (has(podSpec, 'activeDeadlineSeconds'))
    errors.push(forbidden(path.child('template', 'spec', 'activeDeadlineSeconds'), 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errors;
}

/** The internal RollingUpdateStatefulSetStrategy as json.Marshal prints it. */
function statefulRollingValue(rolling: JsonObject): Json {
  return { Partition: numberOf(rolling, 'partition'), MaxUnavailable: has(rolling, 'maxUnavailable') ? intOrStringOf(rolling.maxUnavailable) : null };
}

/** The selector may not change on update (the apps strategies' ValidateUpdate, apps/v1). */
function selectorImmutable(object: JsonObject, old: JsonObject): FieldError[] {
  const selector = objectOf(objectOf(object, 'spec'), 'selector');
  const oldSelector = objectOf(objectOf(old, 'spec'), 'selector');
  return semanticEqualAt('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', undefined, selector ?? null, oldSelector ?? null)
    ? []
    : [invalid(SPEC.child('selector'), json(labelSelectorValue(selector)), FIELD_IMMUTABLE)];
}

const specOf = (object: JsonObject): JsonObject => objectOf(object, 'spec') ?? {};

/** Deployment: ValidateDeployment / ValidateDeploymentUpdate + selector immutability. */
export function validateDeployment(object: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [...validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA), ...validateDeploymentSpec(specOf(object), allowPrivileged, SPEC)];
}
export function validateDeploymentUpdate(object: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
    ...validateDeploymentSpec(specOf(object), allowPrivileged, SPEC),
    ...selectorImmutable(object, old),
  ];
}

/** ReplicaSet: ValidateReplicaSet / ValidateReplicaSetUpdate + selector immutability. */
export function validateReplicaSet(object: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [...validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA), ...validateReplicaSetSpec(specOf(object), allowPrivileged, SPEC)];
}
export function validateReplicaSetUpdate(object: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
    ...validateReplicaSetSpec(specOf(object), allowPrivileged, SPEC),
    ...selectorImmutable(object, old),
  ];
}

/** DaemonSet: ValidateDaemonSet / ValidateDaemonSetUpdate + selector immutability. */
export function validateDaemonSet(object: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [...validateObjectMeta(metadataOf(object), true, nameIsDnsSubdomain, METADATA), ...validateDaemonSetSpec(specOf(object), allowPrivileged, SPEC)];
}
export function validateDaemonSetUpdate(object: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  return [
    ...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
    ...validateDaemonSetSpec(specOf(object), allowPrivileged, SPEC),
    ...selectorImmutable(object, old),
  ];
}

/** StatefulSet: names are DNS labels (they become pod hostnames). */
export function validateStatefulSet(object: JsonObject): FieldError[] {
  return [...validateObjectMeta(metadataOf(object), true, nameIsDnsLabel, METADATA), ...validateStatefulSetSpec(specOf(object), SPEC)];
}

/** ValidateStatefulSetUpdate: only replicas, ordinals, template, updateStrategy, the PVC retention policy and minReadySeconds may change. */
export function validateStatefulSetUpdate(object: JsonObject, old: JsonObject): FieldError[] {
  const errors = [...validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA), ...validateStatefulSetSpec(specOf(object), SPEC)];
  const spec = { ...specOf(object) };
  const oldSpec = specOf(old);
  for (const key of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'ordinals', 'persistentVolumeClaimRetentionPolicy'])
    spec[key] = oldSpec[key] ?? null;
  if (!semanticEqualAt('io.k8s.api.apps.v1.StatefulSetSpec', undefined, spec, oldSpec)) {
    errors.push(
      forbidden(
        SPEC,
        "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errors;
}
