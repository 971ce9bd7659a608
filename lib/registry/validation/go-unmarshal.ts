/**
 * The error text json.Unmarshal gives for a string kube decodes from an annotation or a secret key:
 * a syntax error as encoding/json words it, or a type error for the Go type it decodes into.
 */
import { cannotUnmarshal } from '../../go/json-errors';
import { goJsonSyntaxError } from '../../go/json-scanner';

/** undefined when `text` decodes into a value of `goType` (checked with `accepts`), else Go's error text. */
export function goUnmarshalError(text: string, goType: string, accepts: (value: unknown) => boolean): string | undefined {
  const syntax = goJsonSyntaxError(Buffer.from(text, 'utf8'));
  if (syntax !== undefined) return syntax;
  const value: unknown = JSON.parse(text);
  return accepts(value) ? undefined : cannotUnmarshal(value, goType);
}
