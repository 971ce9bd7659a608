import { yaml } from '../../yaml';

/** A reply's type fields, read as kube-apiserver's decoder reads the body (JSON, else YAML); undefined for no object. */
export function parseReplyType(body: string): { apiVersion: string; kind: string } | undefined {
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
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { apiVersion, kind } = parsed as Record<string, unknown>;
  return { apiVersion: typeof apiVersion === 'string' ? apiVersion : '', kind: typeof kind === 'string' ? kind : '' };
}
