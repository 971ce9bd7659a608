export { CertificateAuthority, sharedAuthority } from './authority';
export type { KeyPair, ServingCertificateOptions, ClientCertificateOptions } from './authority';
export { serviceDnsNames, LOOPBACK_DNS_NAMES, LOOPBACK_IPS } from './names';
