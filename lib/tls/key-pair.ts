/** A PEM private key and the PEM certificate for it. */
export interface KeyPair {
  key: string;
  cert: string;
}
