/**
 * The CEL environment kube-apiserver type-checks a ValidatingAdmissionPolicy in
 * (k8s.io/apiserver/pkg/admission/plugin/policy/validating/typechecking.go `buildEnvSet`): the
 * environment policy expressions compile in (lib/cel/environment.ts `policyEnvironment`: the same
 * options and libraries), with `object` and `oldObject` typed from the kind's schema, `params` from the
 * paramKind's, `namespaceObject` typed as plugin/cel compile.go `BuildNamespaceType` declares it, and
 * `variables` an object whose fields are the variables compiled so far (plugin/cel composition.go).
 */
import type { Environment } from '@marcbachmann/cel-js';
import { registerAuthorizer } from '../../cel/authz';
import { registerLibrary } from '../../cel/library';
import { registerRequestType } from '../../cel/environment';
import { celGoFunctionNames } from '../../cel/libraries/namespace';
import { celModule } from '../../cel/runtime';
import { CEL_RESERVED_SYMBOLS, type DeclType } from './decl-type';

/** A declared type with the name its root is declared under. */
export interface NamedDeclType {
  name: string;
  type: DeclType;
}

/** typechecking.go `typeOverwrite`: the types that replace `dyn`. */
export interface TypeOverwrite {
  /** `object` and `oldObject`; undefined leaves them `dyn` (a schema whose root has no type). */
  object: NamedDeclType | undefined;
  /** `params`, when the policy has a paramKind; `type` undefined when its schema is unknown: `dyn`. */
  params?: { type: NamedDeclType | undefined };
}

/** An environment ready to check expressions, and what reporting their issues needs. */
export interface TypedEnvironment {
  env: Environment;
  /** Every function and macro name (lib/cel/errors.ts `celGoIssue` tells unknown functions apart with it). */
  functions: ReadonlySet<string>;
  /** The fields of each declared object type, by cel-js type name, for checking `has()` (see check.ts). */
  objectTypes: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** plugin/cel composition.go `variablesTypeName`. */
export const VARIABLES_TYPE = 'kubernetes.variables';

const field = (fields: Record<string, DeclType>): ReadonlyMap<string, DeclType> => new Map(Object.entries(fields));
const STRING: DeclType = { kind: 'scalar', name: 'string' };
const INT: DeclType = { kind: 'scalar', name: 'int' };
const TIMESTAMP: DeclType = { kind: 'scalar', name: 'google.protobuf.Timestamp' };
const STRINGS: DeclType = { kind: 'list', elem: STRING };
const STRING_MAP: DeclType = { kind: 'map', elem: STRING };

/** plugin/cel compile.go `BuildNamespaceType`: the fields of a Namespace `namespaceObject` exposes. */
const NAMESPACE_TYPE: DeclType = {
  kind: 'object',
  name: 'kubernetes.Namespace',
  fields: field({
    metadata: {
      kind: 'object',
      name: 'kubernetes.NamespaceMetadata',
      fields: field({
        name: STRING,
        generateName: STRING,
        namespace: STRING,
        labels: STRING_MAP,
        annotations: STRING_MAP,
        UID: STRING,
        creationTimestamp: TIMESTAMP,
        deletionGracePeriodSeconds: INT,
        deletionTimestamp: TIMESTAMP,
        generation: INT,
        resourceVersion: STRING,
        finalizers: STRINGS,
      }),
    },
    spec: { kind: 'object', name: 'kubernetes.NamespaceSpec', fields: field({ finalizers: STRINGS }) },
    status: {
      kind: 'object',
      name: 'kubernetes.NamespaceStatus',
      fields: field({
        conditions: {
          kind: 'list',
          elem: {
            kind: 'object',
            name: 'kubernetes.NamespaceCondition',
            fields: field({ status: STRING, type: STRING, lastTransitionTime: TIMESTAMP, message: STRING, reason: STRING }),
          },
        },
        phase: STRING,
      }),
    },
  }),
};

/**
 * A fresh environment for one kind (typechecking.go compiles each kind in its own). Built like
 * `policyEnvironment` with the authorizer, which kube declares for every expression it type-checks.
 */
export function typedPolicyEnvironment(overwrite: TypeOverwrite): TypedEnvironment {
  const { Environment } = celModule();
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  const objectTypes = new Map<string, ReadonlyMap<string, string>>();
  registerAuthorizer(env);
  registerLibrary(env);
  registerLegacyNullability(env);
  const namespaceType = declare(env, 'kubernetes.Namespace', NAMESPACE_TYPE, objectTypes);
  const objectType = overwrite.object ? declare(env, overwrite.object.name, overwrite.object.type, objectTypes) : 'dyn';
  env.registerVariable('object', objectType).registerVariable('oldObject', objectType);
  registerRequestType(env);
  env.registerVariable('request', 'kubernetes.AdmissionRequest').registerVariable('namespaceObject', namespaceType);
  if (overwrite.params) {
    const params = overwrite.params.type;
    env.registerVariable('params', params ? declare(env, params.name, params.type, objectTypes) : 'dyn');
  }
  return { env, functions: celGoFunctionNames(env), objectTypes };
}

/**
 * `base` with `variables` declared as an object holding `fields` (name → cel-js type), as composition.go
 * `AddField` grows it one compiled variable at a time. cel-js cannot add fields to a declared type, so
 * each stage is a clone of the base that declares its own.
 */
export function withVariables(base: TypedEnvironment, fields: ReadonlyMap<string, string>): TypedEnvironment {
  const env = base.env.clone();
  env.registerType(VARIABLES_TYPE, { fields: Object.fromEntries(fields) }).registerVariable('variables', VARIABLES_TYPE);
  registerObjectEquality(env, VARIABLES_TYPE);
  return { env, functions: base.functions, objectTypes: new Map([...base.objectTypes, [VARIABLES_TYPE, fields]]) };
}

/**
 * Declares `type` and every object type inside it, children first, and returns the cel-js type to
 * declare a variable or field with. Objects without a name of their own are named after where they sit,
 * as types.go `MaybeAssignTypeName` does: `<root>.<field>`, and `._idx` for list elements, `._elem` for
 * map values where kube writes `.@idx` and `.@elem` (cel-js's operator signatures, needed by
 * `registerObjectEquality`, do not take `@`). Kube's root names also end in a timestamp
 * (typechecking.go `generateUniqueTypeName`); both only show in messages that name an object type.
 */
function declare(env: Environment, name: string, type: DeclType, objectTypes: Map<string, ReadonlyMap<string, string>>): string {
  switch (type.kind) {
    case 'scalar':
      return type.name;
    case 'list':
      return `list<${declare(env, `${name}._idx`, type.elem, objectTypes)}>`;
    case 'map':
      return `map<string, ${declare(env, `${name}._elem`, type.elem, objectTypes)}>`;
    case 'object': {
      const typeName = type.name ?? name;
      if (objectTypes.has(typeName)) return typeName;
      const fields = new Map<string, string>();
      for (const [fieldName, fieldType] of type.fields) fields.set(fieldName, declare(env, `${typeName}.${fieldName}`, fieldType, objectTypes));
      // pkg/cel/types.go `FindStructFieldType` with recognizeKeywordAsFieldName, which
      // environment.go `filterAndBuildOpts` sets since kubernetes PR #126188 (v1.31 cycle): a
      // reserved word names its escaped field, so `metadata.namespace` finds `__namespace__`.
      for (const [fieldName, fieldType] of [...fields]) {
        const keyword = /^__([a-z]+)__$/.exec(fieldName)?.[1];
        if (keyword !== undefined && CEL_RESERVED_SYMBOLS.has(keyword) && !fields.has(keyword)) fields.set(keyword, fieldType);
      }
      env.registerType(typeName, { fields: Object.fromEntries(fields) });
      registerObjectEquality(env, typeName);
      objectTypes.set(typeName, fields);
      return typeName;
    }
  }
}

/**
 * cel-go's checker lets `_==_` and `_!=_` compare two values of one object type, and an object,
 * timestamp or duration with null (checker/types.go `isLegacyNullable`); cel-js's checker has no such
 * overloads for declared types, so they are declared here (registering `T == U` also gives `U == T`
 * and `!=`). The checker only reads their types: the policy is evaluated in its own environment.
 */
function registerObjectEquality(env: Environment, typeName: string): void {
  env.registerOperator(`${typeName} == null`, (a: unknown, b: unknown) => a === b);
  env.registerOperator(`${typeName} == ${typeName}`, (a: unknown, b: unknown) => a === b);
}

function registerLegacyNullability(env: Environment): void {
  for (const typeName of ['google.protobuf.Timestamp', 'google.protobuf.Duration'])
    env.registerOperator(`${typeName} == null`, (a: unknown, b: unknown) => a === b);
}
