/**
 * The CEL types a MutatingAdmissionPolicy's expressions construct, for cel-js (apiserver
 * pkg/cel/mutation typeresolver.go `DynamicTypeResolver`):
 * - `Object` and every `Object.<field>…` name: objects with any field, each field of type dyn
 *   (mutation/dynamic/objects.go); the name only has to match the field path (checked after
 *   evaluation, see result-values.ts);
 * - `JSONPatch`: fields `op`, `path`, `from` (strings) and `value` (dyn) (mutation/jsonpatch.go);
 * - the `jsonpatch.escapeKey` function (apiserver pkg/cel/library/jsonpatch.go).
 *
 * Constructions reach cel-js through the macro object-literals.ts rewrites them into. The macro
 * type-checks each field value on its own (a message's fields may differ in type, unlike a map
 * literal's values) and gives the construction its named type, so `list<JSONPatch>` and `Object`
 * come out of cel-js's checker as kube's compiler types them.
 */
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError, checkerTypeName } from '../../cel/errors';
import type { Checker as MacroChecker } from '../../cel/libraries/macro';
import { checkOptionalEntry } from '../../cel/libraries/optional-entries';
import { celModule } from '../../cel/runtime';
import { OBJECT_MACRO } from './object-literals';

export const OBJECT_TYPE = 'Object';
export const JSON_PATCH_TYPE = 'JSONPatch';

/** A constructed `Object…` or `JSONPatch` value: its fields by name, in construction order. */
export class CelObject extends Map<string, unknown> {
  /** The CEL type name (`Object.spec.containers`). */
  get typeName(): string {
    return (this.constructor as typeof CelObject & { readonly celName: string }).celName;
  }
}

const classes = new Map<string, typeof CelObject>();

/** The class of a type name: cel-js tells custom types apart by constructor. */
function classFor(name: string): typeof CelObject {
  let known = classes.get(name);
  if (!known) {
    known = { [name]: class extends CelObject {} }[name] as typeof CelObject;
    Object.defineProperty(known, 'celName', { value: name });
    classes.set(name, known);
  }
  return known;
}

/** Whether the DynamicTypeResolver resolves this name. */
export function isMutationTypeName(name: string): boolean {
  return name === JSON_PATCH_TYPE || name === OBJECT_TYPE || name.startsWith(`${OBJECT_TYPE}.`);
}

const JSON_PATCH_STRING_FIELDS = ['op', 'path', 'from'];
const JSON_PATCH_FIELDS = [...JSON_PATCH_STRING_FIELDS, 'value'];

class JsonpatchNamespace {}

/**
 * Adds the macro, the JSONPatch type and `jsonpatch.escapeKey` to `env` (which must not have been
 * cloned yet). The `Object…` types an expression uses are added per expression by `registerObjectTypes`.
 */
export function registerMutationLibrary(env: Environment): void {
  const sync = { async: false };
  env.registerType(JSON_PATCH_TYPE, classFor(JSON_PATCH_TYPE));
  env.registerType('JsonpatchNamespace', JsonpatchNamespace);
  env.registerConstant('jsonpatch', 'JsonpatchNamespace', new JsonpatchNamespace());
  // jsonpatch.go: strings.NewReplacer("/", "~1", "~", "~0").
  env.registerFunction(
    'JsonpatchNamespace.escapeKey(string): string',
    (_ns: unknown, key: string) => key.replace(/[~/]/g, (ch) => (ch === '/' ? '~1' : '~0')),
    sync,
  );
  env.registerFunction(`${OBJECT_MACRO}(ast, ast): dyn`, objectMacro);
}

/** Adds the `Object…` types `names` to `env`, an environment of its own for one expression. */
export function registerObjectTypes(env: Environment, names: Iterable<string>): void {
  const done = new Set<string>([JSON_PATCH_TYPE]);
  for (const name of names) {
    if (done.has(name) || !isMutationTypeName(name)) continue;
    done.add(name);
    env.registerType(name, classFor(name));
  }
}

interface Field {
  readonly name: string;
  readonly optional: boolean;
  readonly key: ASTNode;
  readonly value: ASTNode;
}

interface ObjectMacro {
  readonly typeName: string;
  /** The construction's `{`: cel-go reports an unknown type there. */
  readonly braceNode: ASTNode;
  readonly fields: readonly Field[];
}

// cel-js's macro hooks: the checker and evaluator are internal classes, only these members are used.
interface Checker {
  check(node: ASTNode, ctx: unknown): { readonly name: string; readonly kind: string };
  getType(name: string): unknown;
  createError(code: string, message: string, node: ASTNode): Error;
}
interface Evaluator {
  run(node: ASTNode, ctx: unknown): unknown;
}

function objectMacro({ args }: { args: ASTNode[] }) {
  const [nameNode, mapNode] = args;
  if (nameNode?.op !== 'value' || typeof nameNode.args !== 'string' || mapNode?.op !== 'map') {
    throw new Error(`${OBJECT_MACRO} takes a type name and a map literal`);
  }
  const fields: Field[] = mapNode.args.map(([key, value]) => {
    const raw = key.op === 'value' && typeof key.args === 'string' ? key.args : '';
    return { name: raw.replace(/^\?/, ''), optional: raw.startsWith('?'), key, value };
  });
  const macro: ObjectMacro = { typeName: nameNode.args, braceNode: mapNode, fields };
  return {
    ...macro,
    async: false,
    typeCheck: (checker: Checker, m: ObjectMacro, ctx: unknown) => typeCheck(checker, m, ctx),
    evaluate: (evaluator: Evaluator, m: ObjectMacro, ctx: unknown) => evaluate(evaluator, m, ctx),
  };
}

function typeCheck(checker: Checker, macro: ObjectMacro, ctx: unknown): unknown {
  if (!isMutationTypeName(macro.typeName)) {
    throw checker.createError('unknown_variable', `undeclared reference to '${macro.typeName}' (in container '')`, macro.braceNode);
  }
  for (const field of macro.fields) {
    // cel-go checker `checkCreateStruct`: a `?field` takes an optional (or dyn), the field the type it wraps.
    const type = field.optional ? checkOptionalEntry(checker as unknown as MacroChecker, field.value, ctx) : checker.check(field.value, ctx);
    // A JSONPatch's string fields take strings (or dyn); an Object's fields are dyn (mutation/dynamic ObjectType).
    if (macro.typeName === JSON_PATCH_TYPE && JSON_PATCH_STRING_FIELDS.includes(field.name) && type.kind !== 'dyn' && type.name !== 'string') {
      throw checker.createError(
        'field_type_mismatch',
        `expected type of field '${field.name}' is 'string' but provided type is '${checkerTypeName(type.name)}'`,
        colonOf(field.key),
      );
    }
  }
  return checker.getType(macro.typeName);
}

/** Where cel-go places errors about a field initializer: its colon (parser `newObjectField` takes the colon's position). */
function colonOf(key: ASTNode): ASTNode {
  const colon = key.input.indexOf(':', key.end);
  if (colon < 0) return key;
  return {
    op: 'value',
    args: '',
    input: key.input,
    pos: colon,
    start: colon,
    end: colon + 1,
    range: { start: colon, end: colon + 1 },
    toOldStructure: () => ['value', ''],
  } as ASTNode;
}

function evaluate(evaluator: Evaluator, macro: ObjectMacro, ctx: unknown): CelObject {
  const { Optional } = celModule();
  const object = new (classFor(macro.typeName))();
  for (const field of macro.fields) {
    let value = evaluator.run(field.value, ctx);
    if (value instanceof Promise) throw new Error('asynchronous functions are not supported in mutation expressions');
    if (field.optional && value instanceof Optional) {
      if (!value.hasValue()) continue;
      value = value.value();
    }
    if (macro.typeName === JSON_PATCH_TYPE) checkJsonPatchField(field.name, value);
    object.set(field.name, value);
  }
  return object;
}

/** mutation/jsonpatch.go `JSONPatchType.Val`: the run-time errors of a JSONPatch construction. */
function checkJsonPatchField(name: string, value: unknown): void {
  if (!JSON_PATCH_FIELDS.includes(name)) throw new CelFunctionError(`unexpected JSONPatchType field: ${name}`);
  if (JSON_PATCH_STRING_FIELDS.includes(name) && typeof value !== 'string') {
    throw new CelFunctionError(`unexpected type ${goTypeOfCel(value)} for JSONPatchType '${name}' field`);
  }
}

/** Go's `%T` of a CEL value's `Value()`. */
function goTypeOfCel(value: unknown): string {
  if (value === null) return 'structpb.NullValue';
  if (typeof value === 'bigint') return 'int64';
  if (typeof value === 'number') return 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (value instanceof Uint8Array) return '[]uint8';
  if (value instanceof Date) return 'time.Time';
  if (Array.isArray(value)) return '[]ref.Val';
  if (value instanceof CelObject) return value.typeName === JSON_PATCH_TYPE ? '*unstructured.JSONPatchVal' : 'map[string]interface {}';
  if (typeof value === 'object') return 'map[ref.Val]ref.Val';
  return typeof value;
}
