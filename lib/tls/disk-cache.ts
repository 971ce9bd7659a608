import { createHash, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KeyPair } from './key-pair';

const DAY_MS = 24 * 60 * 60 * 1000;

interface StoredPair extends KeyPair {
  /** The certificate's notAfter, in ms since the epoch. */
  notAfter: number;
}

/**
 * Test certificates kept between processes, so a Jest worker does not pay for key generation and the
 * selfsigned import on every start. Only the process-wide harness CA uses it; the keys are throwaway
 * test keys, stored owner-readable only. `ADMISSION_HARNESS_CERT_CACHE=0` turns it off.
 */
export class CertificateDiskCache {
  constructor(private readonly dir: string) {}

  /** The cache the shared authority uses, or undefined when switched off. */
  static default(): CertificateDiskCache | undefined {
    if (process.env.ADMISSION_HARNESS_CERT_CACHE === '0') return undefined;
    const dir = process.env.ADMISSION_HARNESS_CERT_CACHE_DIR ?? path.join(os.tmpdir(), `admission-harness-certs-${os.userInfo().uid}`);
    return new CertificateDiskCache(dir);
  }

  /** A stored pair still valid for a day more, or undefined. */
  read(name: string): KeyPair | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.file(name), 'utf8')) as Partial<StoredPair>;
      if (typeof entry.key !== 'string' || typeof entry.cert !== 'string' || typeof entry.notAfter !== 'number') return undefined;
      if (entry.notAfter - Date.now() < DAY_MS) return undefined;
      return { key: entry.key, cert: entry.cert };
    } catch {
      return undefined;
    }
  }

  /** Stores atomically (write, then rename): parallel workers never read half a file. */
  write(name: string, pair: KeyPair): void {
    try {
      // The expiry is stored beside the pair: reading it back then costs no certificate parse, which
      // is a millisecond of every cold start.
      const entry: StoredPair = { key: pair.key, cert: pair.cert, notAfter: new Date(new X509Certificate(pair.cert).validTo).getTime() };
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const temp = `${this.file(name)}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(entry), { mode: 0o600 });
      renameSync(temp, this.file(name));
    } catch {
      // A read-only or full disk only costs speed: the certificate still works in this process.
    }
  }

  /** The key under which leaf certificates for `hosts` issued by `caCert` are stored. */
  static leafName(caCert: string, hosts: readonly string[]): string {
    return `leaf-${createHash('sha256').update(caCert).update(hosts.join(',')).digest('hex').slice(0, 24)}`;
  }

  private file(name: string): string {
    return path.join(this.dir, `${name}.json`);
  }
}
