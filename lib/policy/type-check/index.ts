export { typeCheckPolicy, type ExpressionWarning } from './check';
export {
  catalogKindResolver,
  catalogSchemaResolver,
  formatGvk,
  typesToCheck,
  MAX_TYPES_TO_CHECK,
  type KindResolver,
  type KindSchema,
  type KindSchemaResolver,
} from './kinds';
export { builtinDeclType, customResourceDeclType, escapeFieldName, type DeclType } from './decl-type';
