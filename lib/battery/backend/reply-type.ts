import { yaml } from '../../yaml';

/** A reply as kube-apiserver's decoder reads the body (JSON, else YAML); undefined when it is no object. */
export function parseReply(body: string): Record<string, unknown> | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    try {
      parsed = yaml().parse(body, { version: '1.1' });
    } catch {
      return undefined;
    }
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

/** A reply's type fields, read as `parseReply` reads the body; undefined for no object. */
export function parseReplyType(body: string): { apiVersion: string; kind: string } | undefined {
  const parsed = parseReply(body);
  if (!parsed) return undefined;
  const { apiVersion, kind } = parsed;
  return { apiVersion: typeof apiVersion === 'string' ? apiVersion : '', kind: typeof kind === 'string' ? kind : '' };
}
