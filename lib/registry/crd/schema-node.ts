/**
 * The tree a CRD version's `openAPIV3Schema` compiles to (structural.ts builds it): what pruning,
 * defaulting, validation and CEL walk. Types alone, so every step can name a node without the compiler.
 */
import type { Json } from '../../kube/json';

/** One `x-kubernetes-validations` entry (apiextensions/v1 ValidationRule). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** One node of a compiled schema. */
export interface SchemaNode {
  /** `type`, or '' when the schema leaves it out (x-kubernetes-int-or-string, preserve-unknown-fields). */
  readonly type: string;
  readonly nullable: boolean;
  /** `format` as written; validation only checks the formats kube supports (see lib/kube/openapi-formats.ts). */
  readonly format: string;
  /** The default after PruneDefaults (defaulting/prune.go): unknown fields already removed. */
  readonly default: Json | undefined;
  /** Properties in the order the schema declares them. */
  readonly properties: ReadonlyMap<string, SchemaNode>;
  /** `additionalProperties`: a schema, `true` (kept with no schema below), `false`, or absent. */
  readonly additionalProperties: SchemaNode | boolean | undefined;
  readonly items: SchemaNode | undefined;
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly listType: string | undefined;
  readonly listMapKeys: readonly string[];
  readonly mapType: string | undefined;
  readonly validations: readonly ValidationRule[];
  // Value validations (kube-openapi).
  readonly enum: readonly Json[] | undefined;
  readonly required: readonly string[];
  readonly pattern: string | undefined;
  readonly maximum: number | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | undefined;
  readonly exclusiveMinimum: boolean;
  readonly multipleOf: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  readonly allOf: readonly SchemaNode[];
  readonly anyOf: readonly SchemaNode[];
  readonly oneOf: readonly SchemaNode[];
  readonly not: SchemaNode | undefined;
  /** Where the node sits in the CRD schema, as CRD validation names it: `properties[spec].items`. */
  readonly location: string;
}

/** A compiled `openAPIV3Schema` (compiled CEL rules are cached per node, see cel/rules.ts). */
export interface StructuralSchema {
  readonly root: SchemaNode;
  /** Whether any node carries x-kubernetes-validations (CEL is only needed then). */
  readonly hasRules: boolean;
}
