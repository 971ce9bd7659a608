/** Texts of Go's encoding/json type errors, which kube-apiserver passes to users verbatim. */

/** The JSON type names encoding/json prints in `json: cannot unmarshal <type> into Go value of type …`. */
export function goJsonKind(value: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** encoding/json's UnmarshalTypeError text outside struct fields. */
export function cannotUnmarshal(value: unknown, goType: string): string {
  return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${goType}`;
}
