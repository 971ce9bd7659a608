import { randomBytes, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { CertificateDiskCache } from './disk-cache';
import type { KeyPair } from './key-pair';
import { LOOPBACK_DNS_NAMES, LOOPBACK_IPS } from './names';

export type { KeyPair } from './key-pair';

export interface ServingCertificateOptions {
  /** DNS names and IP addresses for the subjectAltName; loopback names are always added. */
  hosts?: string[];
  commonName?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** Leave out localhost/127.0.0.1/::1 (for certificates that must fail verification). */
  omitLoopback?: boolean;
}

export interface ClientCertificateOptions {
  commonName: string;
  notBefore?: Date;
  notAfter?: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// EC P-256 with sha256: selfsigned defaults to sha1, which OpenSSL 3 refuses (ERR_SSL_CA_MD_TOO_WEAK),
// and RSA-2048 generation costs 20x more per certificate.
const KEY_OPTIONS = { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' } as const;

type Generate = typeof import('selfsigned').generate;
let selfsigned: Promise<typeof import('selfsigned')> | undefined;
async function generate(...args: Parameters<Generate>): ReturnType<Generate> {
  // selfsigned pulls in @peculiar/x509; load it only when a certificate is first needed.
  selfsigned ??= import('selfsigned');
  return (await selfsigned).generate(...args);
}

function uniqueSuffix(): string {
  return randomBytes(4).toString('hex');
}

/**
 * A private certificate authority: the CA kube-apiserver trusts through a webhook's `caBundle`, and the
 * issuer of the serving certificates the harness's targets present and of client certificates for mTLS.
 */
export class CertificateAuthority implements KeyPair {
  private readonly servingCache = new Map<string, Promise<KeyPair>>();

  private constructor(
    readonly key: string,
    readonly cert: string,
    private name: string | undefined,
    /** Where serving certificates outlive the process (the shared CA only). */
    private readonly disk?: CertificateDiskCache,
  ) {}

  /** A CA from a stored key and certificate. */
  static fromKeyPair(pair: KeyPair, disk?: CertificateDiskCache): CertificateAuthority {
    return new CertificateAuthority(pair.key, pair.cert, undefined, disk);
  }

  /** The CA certificate's common name (read from the certificate when first asked: a cold start need not parse it). */
  get commonName(): string {
    this.name ??= new X509Certificate(this.cert).subject.replace(/^CN=/, '');
    return this.name;
  }

  /** Creates a CA with a unique common name (two harness CAs must never be confused by a verifier). */
  static async create(options: { commonName?: string; notBefore?: Date; notAfter?: Date } = {}): Promise<CertificateAuthority> {
    const commonName = options.commonName ?? `admission-harness-ca-${uniqueSuffix()}`;
    const notBeforeDate = options.notBefore ?? new Date(Date.now() - DAY_MS);
    const pems = await generate([{ name: 'commonName', value: commonName }], {
      ...KEY_OPTIONS,
      notBeforeDate,
      notAfterDate: options.notAfter ?? new Date(notBeforeDate.getTime() + 365 * DAY_MS),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
      ],
    });
    return new CertificateAuthority(pems.private, pems.cert, commonName);
  }

  /** The CA certificate as a webhook configuration's `caBundle`: base64 of the PEM. */
  get caBundle(): string {
    return Buffer.from(this.cert).toString('base64');
  }

  /**
   * Issues a serving certificate for the given hosts plus localhost, 127.0.0.1 and ::1. Certificates
   * with default validity are cached per host set, since a test process asks for the same ones often.
   */
  issueServing(options: ServingCertificateOptions = {}): Promise<KeyPair> {
    const hosts = [...new Set([...(options.hosts ?? []), ...(options.omitLoopback ? [] : [...LOOPBACK_DNS_NAMES, ...LOOPBACK_IPS])])];
    const cacheable = !options.notBefore && !options.notAfter && !options.commonName;
    const sorted = [...hosts].sort();
    const cacheKey = sorted.join(',');
    const cached = cacheable ? this.servingCache.get(cacheKey) : undefined;
    if (cached) return cached;
    const diskName = cacheable && this.disk ? CertificateDiskCache.leafName(this.cert, sorted) : undefined;
    const stored = diskName ? this.disk?.read(diskName) : undefined;
    if (stored) {
      const ready = Promise.resolve(stored);
      this.servingCache.set(cacheKey, ready);
      return ready;
    }
    const issued = this.sign({
      commonName: options.commonName ?? hosts.find((h) => isIP(h) === 0) ?? 'admission-harness-serving',
      hosts,
      notBefore: options.notBefore,
      notAfter: options.notAfter,
      usage: { serverAuth: true },
    });
    if (cacheable) {
      this.servingCache.set(cacheKey, issued);
      issued.then(
        (pair) => diskName && this.disk?.write(diskName, pair),
        () => this.servingCache.delete(cacheKey),
      );
    }
    return issued;
  }

  /** Issues a client certificate (for webhooks that require mTLS from kube-apiserver). */
  issueClient(options: ClientCertificateOptions): Promise<KeyPair> {
    return this.sign({ ...options, hosts: [], usage: { clientAuth: true } });
  }

  private async sign(spec: {
    commonName: string;
    hosts: string[];
    notBefore?: Date | undefined;
    notAfter?: Date | undefined;
    usage: { serverAuth?: boolean; clientAuth?: boolean };
  }): Promise<KeyPair> {
    const notBeforeDate = spec.notBefore ?? new Date(Date.now() - DAY_MS);
    const altNames = spec.hosts.map((host) => (isIP(host) === 0 ? { type: 2 as const, value: host } : { type: 7 as const, ip: host }));
    const pems = await generate([{ name: 'commonName', value: spec.commonName }], {
      ...KEY_OPTIONS,
      notBeforeDate,
      notAfterDate: spec.notAfter ?? new Date(notBeforeDate.getTime() + 365 * DAY_MS),
      ca: { key: this.key, cert: this.cert },
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', ...spec.usage },
        ...(altNames.length > 0 ? [{ name: 'subjectAltName' as const, altNames }] : []),
      ],
    });
    return { key: pems.private, cert: pems.cert };
  }
}

let shared: Promise<CertificateAuthority> | undefined;

async function loadOrCreateShared(): Promise<CertificateAuthority> {
  const disk = CertificateDiskCache.default();
  const stored = disk?.read('ca');
  if (stored) return CertificateAuthority.fromKeyPair(stored, disk);
  const created = await CertificateAuthority.create();
  disk?.write('ca', { key: created.key, cert: created.cert });
  return CertificateAuthority.fromKeyPair(created, disk);
}

/**
 * The process-wide CA. Every harness shares it and it is kept on disk with the serving certificates it
 * issued, so only the first `createHarness()` on a machine pays for key generation; tests that need
 * isolation create their own with `CertificateAuthority.create()`.
 */
export function sharedAuthority(): Promise<CertificateAuthority> {
  shared ??= loadOrCreateShared();
  shared.catch(() => (shared = undefined));
  return shared;
}
