/** Texts of Go's encoding/json errors, which kube-apiserver passes through to users verbatim. */

/** The JSON type name Go prints in `json: cannot unmarshal <type> into …`. */
export function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** Go's SyntaxError text for `text`, given the error JSON.parse raised for it. */
export function goJsonSyntaxError(text: string, error: Error): string {
  const position = /position (\d+)/.exec(error.message);
  const offset = position ? Number(position[1]) : -1;
  if (offset < 0 || offset >= text.length) return 'unexpected end of JSON input';
  const ch = text[offset] ?? '';
  const shown = ch === "'" ? "'\\''" : ch === '"' ? "'\"'" : `'${ch}'`;
  const before = text.slice(0, offset).trimEnd();
  const open = openContainers(before);
  if (open.length === 0) return `invalid character ${shown} after top-level value`;
  if (/[{,]$/.test(before) && open[open.length - 1] === '{') return `invalid character ${shown} looking for beginning of object key string`;
  return `invalid character ${shown} looking for beginning of value`;
}

/** The `{`/`[` still open at the end of `text`, ignoring brackets inside strings. */
function openContainers(text: string): string[] {
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c);
    else if (c === '}' || c === ']') open.pop();
  }
  return open;
}
