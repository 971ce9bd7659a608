import tls, { type PeerCertificate } from 'node:tls';

/** Go's x509.HostnameError text for a certificate that does not carry `name`. */
export function verifyIdentity(name: string, cert: PeerCertificate): Error | undefined {
  const failure = tls.checkServerIdentity(name, cert);
  if (!failure) return undefined;
  const sans = (cert.subjectaltname ?? '').split(', ').filter(Boolean);
  const ipName = /^[\d.]+$|:/.test(name);
  const valid = sans.filter((san) => san.startsWith(ipName ? 'IP Address:' : 'DNS:')).map((san) => san.replace(/^(IP Address|DNS):/, ''));
  let text: string;
  if (valid.length > 0) text = `x509: certificate is valid for ${valid.join(', ')}, not ${name}`;
  else if (ipName) text = `x509: cannot validate certificate for ${name} because it doesn't contain any IP SANs`;
  else text = `x509: certificate is not valid for any names, but wanted to match ${name}`;
  return Object.assign(new Error(text), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
}
