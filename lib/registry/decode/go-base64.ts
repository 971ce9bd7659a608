/**
 * Go's `base64.StdEncoding.Decode`, which encoding/json uses for `[]byte` fields (Secret `data`,
 * `caBundle`…): padding required, `\r` and `\n` skipped anywhere, and on bad input a CorruptInputError
 * whose text names the byte offset — `illegal base64 data at input byte 4` — which kube-apiserver returns
 * verbatim. Upstream: Go's `src/encoding/base64/base64.go` (`Decode`, `decodeQuantum`).
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE_MAP = (() => {
  const map = new Int16Array(256).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) map[ALPHABET.charCodeAt(i)] = i;
  return map;
})();
const PAD = 0x3d; // '='
const CR = 0x0d;
const LF = 0x0a;

export type Base64Decode = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

function corrupt(offset: number): Base64Decode {
  return { ok: false, message: `illegal base64 data at input byte ${offset}` };
}

/** Decodes `text` (its UTF-8 bytes, as Go sees the JSON string) the way StdEncoding.Decode does. */
export function decodeGoBase64(text: string): Base64Decode {
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    // decodeQuantum
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { ok: true, bytes: Uint8Array.from(out) };
        return corrupt(si - j); // a partial quantum: StdEncoding requires padding
      }
      const input = src[si] as number;
      si++;
      const decoded = DECODE_MAP[input] as number;
      if (decoded >= 0) {
        dbuf[j] = decoded;
        continue;
      }
      if (input === LF || input === CR) {
        j--;
        continue;
      }
      if (input !== PAD) return corrupt(si - 1);
      // Padding: only after two or three characters of the quantum.
      if (j === 0 || j === 1) return corrupt(si - 1);
      if (j === 2) {
        // "==" expected; the first "=" is consumed.
        while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== PAD) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = ((dbuf[0] as number) << 18) | ((dbuf[1] as number) << 12) | ((dbuf[2] as number) << 6) | (dbuf[3] as number);
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    for (let k = 0; k < dlen - 1; k++) out.push(bytes[k] as number);
    if (trailing !== undefined) return corrupt(trailing);
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}

/** base64.StdEncoding.EncodeToString: what encoding/json writes for a `[]byte`. */
export function encodeGoBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
