/** net/url.URL and its error, on Go bytes: "binary strings" holding one char per UTF-8 byte. */
export class GoUrlError extends Error {
  override readonly name = 'GoUrlError';
}

export interface GoUserinfo {
  readonly username: string;
  readonly password: string;
  readonly passwordSet: boolean;
}

/** net/url.URL, with every string field holding Go bytes. */
export interface GoURL {
  scheme: string;
  opaque: string;
  user: GoUserinfo | undefined;
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

export function toBytes(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

export function fromBytes(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
