/** Decoding a patched object into its Go type, as kube-apiserver does after a mutating webhook's patch. */
export { decodeTyped, type DecodeResult } from './decode-typed';
export { LEGACY_SCHEME_NAME } from './type-meta';
