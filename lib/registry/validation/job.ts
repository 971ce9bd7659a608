/**
 * batch/v1 Job (pkg/apis/batch/validation/validation.go ValidateJob, ValidateJobUpdate and the strategy in
 * pkg/registry/batch/job): the generated selector, the spec with its selector, and on update the immutable
 * selector, template and completion fields.
 */
import type { Json, JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { objectOf, optionalBoolean, optionalNumber, optionalString, stringMapOf, stringOf } from './access';
import { invalid, json, required } from '../../kube/field-errors';
import { goMap } from '../../go/json-marshal';
import { dns1123LabelErrors } from '../../kube/value-formats';
import { labelSelectorValue, selectorOf, validateLabelSelector } from './label-selector';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { FIELD_IMMUTABLE, metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { semanticEqualAt } from '../equality';
import { validateJobSpec } from './job-spec';

const JOB_SPEC = 'io.k8s.api.batch.v1.JobSpec';

const METADATA = Path.of('metadata');
const SPEC = Path.of('spec');

/** ValidateJobSpec: the shared rules, then the selector (required, valid, matching the template). */
function validateJobSpecWithSelector(spec: JsonObject, allowPrivileged: boolean, path: Path): FieldError[] {
  const errors = validateJobSpec(spec, allowPrivileged, path);
  const selector = objectOf(spec, 'selector');
  if (!selector) errors.push(required(path.child('selector')));
  else errors.push(...validateLabelSelector(selector, path.child('selector')));
  const compiled = selectorOf(selector);
  const template = objectOf(spec, 'template') ?? {};
  const labels = stringMapOf(objectOf(template, 'metadata'), 'labels');
  if (compiled && !compiled.matches(labels))
    errors.push(invalid(path.child('template', 'metadata', 'labels'), json(labels ? goMap(labels) : null), '`selector` does not match template `labels`'));
  return errors;
}

/** ValidateHasLabel. */
function hasLabel(meta: JsonObject, key: string, expected: string, path: Path): FieldError[] {
  const labels = stringMapOf(meta, 'labels');
  if (!labels || !(key in labels)) return [required(path.child('labels').key(key), `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalid(path.child('labels').key(key), json(goMap(labels)), `must be '${expected}'`)];
}

/** validateGeneratedSelector: an auto-generated selector must select the job's uid and name. */
function validateGeneratedSelector(job: JsonObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = objectOf(job, 'spec') ?? {};
  if (optionalBoolean(spec, 'manualSelector') === true) return [];
  const selector = objectOf(spec, 'selector');
  if (!selector) return [];
  const meta = metadataOf(job);
  const uid = stringOf(meta, 'uid');
  const name = stringOf(meta, 'name');
  const errors: FieldError[] = [];
  if (uid === '') errors.push(required(METADATA.child('uid')));
  const templateMeta = objectOf(objectOf(spec, 'template'), 'metadata') ?? {};
  const templatePath = SPEC.child('template').child('metadata');
  errors.push(...hasLabel(templateMeta, 'controller-uid', uid, templatePath));
  errors.push(...hasLabel(templateMeta, 'job-name', name, templatePath));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errors.push(...hasLabel(templateMeta, 'batch.kubernetes.io/controller-uid', uid, templatePath));
    errors.push(...hasLabel(templateMeta, 'batch.kubernetes.io/job-name', name, templatePath));
    expected['batch.kubernetes.io/controller-uid'] = uid;
    expected['batch.kubernetes.io/job-name'] = name;
  }
  expected['controller-uid'] = uid;
  expected['job-name'] = name;
  const compiled = selectorOf(selector);
  if (compiled && !compiled.matches(expected))
    errors.push(invalid(SPEC.child('selector'), json(labelSelectorValue(selector)), '`selector` not auto-generated'));
  return errors;
}

/** ValidateJob. */
function validateJobObject(job: JsonObject, allowPrivileged: boolean, requirePrefixedLabels: boolean): FieldError[] {
  const meta = metadataOf(job);
  const spec = objectOf(job, 'spec') ?? {};
  const errors = validateObjectMeta(meta, true, nameIsDnsSubdomain, METADATA);
  errors.push(...validateGeneratedSelector(job, requirePrefixedLabels));
  errors.push(...validateJobSpecWithSelector(spec, allowPrivileged, SPEC));
  const completions = optionalNumber(spec, 'completions');
  if (stringOf(spec, 'completionMode') === 'Indexed' && completions !== undefined && completions > 0) {
    // Indexed pods are named `<job>-<index>`; the longest must be a DNS label.
    const hostname = `${stringOf(meta, 'name')}-${completions - 1}`;
    if (dns1123LabelErrors(hostname).length > 0)
      errors.push(invalid(METADATA.child('name'), stringOf(meta, 'name'), `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errors;
}

/** The job strategy's Validate (the prefixed selector labels are required on create). */
export function validateJob(job: JsonObject, allowPrivileged: boolean): FieldError[] {
  return validateJobObject(job, allowPrivileged, true);
}

/**
 * The job strategy's ValidateUpdate: ValidateJob, then ValidateJobUpdate (which validates the spec once
 * more, so its errors appear twice, as upstream's do). Completions are mutable only for Indexed jobs
 * when scaled with parallelism (ElasticIndexedJob); the template only in its scheduling directives while
 * the job is suspended and has never started.
 */
export function validateJobUpdate(job: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[] {
  const oldSpec = objectOf(old, 'spec') ?? {};
  const oldLabels = stringMapOf(objectOf(objectOf(oldSpec, 'template'), 'metadata'), 'labels') ?? {};
  const requirePrefixed = 'batch.kubernetes.io/job-name' in oldLabels && 'batch.kubernetes.io/controller-uid' in oldLabels;
  const errors = validateJobObject(job, allowPrivileged, requirePrefixed);
  errors.push(...validateObjectMetaUpdate(metadataOf(job), metadataOf(old), METADATA));
  const spec = objectOf(job, 'spec') ?? {};
  errors.push(...validateJobSpecWithSelector(spec, allowPrivileged, SPEC));
  errors.push(...validateCompletionsUpdate(spec, oldSpec));
  errors.push(...immutable(spec, oldSpec, 'selector', (v) => labelSelectorValue(v as JsonObject | undefined)));
  // Scheduling directives are mutable while the job is suspended and has never started.
  const suspended = optionalBoolean(oldSpec, 'suspend') === true && optionalString(objectOf(old, 'status'), 'startTime') === undefined;
  const template = objectOf(spec, 'template') ?? {};
  let oldTemplate: JsonObject = objectOf(oldSpec, 'template') ?? {};
  if (suspended) oldTemplate = withMutableSchedulingDirectives(template, oldTemplate);
  if (!semanticEqualAt('io.k8s.api.core.v1.PodTemplateSpec', undefined, template, oldTemplate))
    errors.push(invalid(SPEC.child('template'), json(template), FIELD_IMMUTABLE));
  for (const key of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'])
    errors.push(...immutable(spec, oldSpec, key, (v) => v ?? null));
  return errors;
}

/** The old template with the new one's scheduling directives (AllowMutableSchedulingDirectives). */
function withMutableSchedulingDirectives(template: JsonObject, old: JsonObject): JsonObject {
  const spec = objectOf(template, 'spec') ?? {};
  const oldSpec: JsonObject = { ...(objectOf(old, 'spec') ?? {}) };
  const affinity = objectOf(spec, 'affinity');
  const oldAffinity = objectOf(oldSpec, 'affinity');
  if (!affinity && oldAffinity) {
    const rest = { ...oldAffinity, nodeAffinity: null };
    oldSpec.affinity = Object.values(rest).some((v) => v !== null && v !== undefined) ? rest : null;
  } else if (affinity) {
    oldSpec.affinity = { ...(oldAffinity ?? {}), nodeAffinity: affinity.nodeAffinity ?? null };
  }
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) oldSpec[key] = spec[key] ?? null;
  const meta = objectOf(template, 'metadata') ?? {};
  return { ...old, metadata: { ...(objectOf(old, 'metadata') ?? {}), annotations: meta.annotations ?? null, labels: meta.labels ?? null }, spec: oldSpec };
}

function immutable(spec: JsonObject, oldSpec: JsonObject, key: string, render: (value: Json | undefined) => Json): FieldError[] {
  return semanticEqualAt(JOB_SPEC, key, spec[key], oldSpec[key]) ? [] : [invalid(SPEC.child(key), json(render(spec[key])), FIELD_IMMUTABLE)];
}

/** validateCompletions with ElasticIndexedJob (GA). */
function validateCompletionsUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  if (semanticEqualAt(JOB_SPEC, 'completions', spec.completions, oldSpec.completions)) return [];
  const path = SPEC.child('completions');
  if (stringOf(spec, 'completionMode') !== 'Indexed') return [invalid(path, json(spec.completions ?? null), FIELD_IMMUTABLE)];
  const completions = optionalNumber(spec, 'completions');
  if (completions === undefined) return [];
  return completions !== optionalNumber(spec, 'parallelism') ? [invalid(path, json(completions), 'can only be modified in tandem with spec.parallelism')] : [];
}
