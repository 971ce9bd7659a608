import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { CertificateAuthority } from '../../lib';
import { CertificateDiskCache } from '../../lib/tls/disk-cache';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the certificate disk cache', () => {
  let dir: string;
  let cache: CertificateDiskCache;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ah-cert-cache-'));
    cache = new CertificateDiskCache(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const authority = () => CertificateAuthority.create();

  it('gives back a stored pair, with its expiry stored beside it', async () => {
    const ca = await authority();
    cache.write('ca', ca);
    expect(cache.read('ca')).toEqual({ key: ca.key, cert: ca.cert });
    const stored = JSON.parse(readFileSync(path.join(dir, 'ca.json'), 'utf8')) as { notAfter: number };
    expect(stored.notAfter).toBe(new Date(new X509Certificate(ca.cert).validTo).getTime());
  });

  it('ignores a pair that expires within a day, a file of an older format, and a broken file', async () => {
    const soon = await CertificateAuthority.create({ notAfter: new Date(Date.now() + DAY_MS / 2) });
    cache.write('soon', soon);
    expect(cache.read('soon')).toBeUndefined();
    const ca = await authority();
    writeFileSync(path.join(dir, 'old.json'), JSON.stringify({ key: ca.key, cert: ca.cert }));
    expect(cache.read('old')).toBeUndefined();
    writeFileSync(path.join(dir, 'broken.json'), '{"key":');
    expect(cache.read('broken')).toBeUndefined();
    expect(cache.read('absent')).toBeUndefined();
  });

  it('lets a CA read back from it issue the serving certificates it stored', async () => {
    const created = await authority();
    cache.write('ca', created);
    const first = CertificateAuthority.fromKeyPair(cache.read('ca')!, cache);
    const serving = await first.issueServing({ hosts: ['w.ns.svc'] });
    // A second process: a new CA object from the same files finds the certificate on disk.
    const second = CertificateAuthority.fromKeyPair(cache.read('ca')!, cache);
    expect(await second.issueServing({ hosts: ['w.ns.svc'] })).toEqual(serving);
    expect(second.commonName).toBe(created.commonName);
  });
});
