import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixtureFileName, fixturesToYaml } from '../audit/fixture';
import type { Recordable, RecordSource } from '../audit/recorded-review';
import type { AdmissionRequest, AdmissionResponse } from '../kube/admission';

/** A review as `record` writes it: the audit's Recordable with the record source. */
export interface RecordedEntry {
  source: RecordSource;
  request: AdmissionRequest;
  response?: AdmissionResponse;
  limits: readonly string[];
}

/** The entry as lib/audit's fixture functions take it. */
export function asRecordable(entry: RecordedEntry): Recordable {
  return entry;
}

/**
 * Writes one RecordedReview file per entry into `dir`, named and numbered as `writeFixtures` names
 * them (`pods-create-1.yaml`, numbering on after the files already there, never overwriting one), with
 * the same document text (`fixturesToYaml` of one review is `writeFixtures`' file). It keeps the next
 * number per name itself: `writeFixtures` probes from 1 on every call, which a recording of thousands
 * of requests of one kind (lease updates) would pay quadratically, on the event loop answering
 * kube-apiserver.
 */
export class FixtureWriter {
  private readonly next = new Map<string, number>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Writes `entry`; returns the file's path. Throws what the file system throws (a full disk, say). */
  write(entry: RecordedEntry): string {
    const recordable = asRecordable(entry);
    const text = fixturesToYaml([recordable]);
    // The first file name stands for the name's stem: fixtureFileName does not export the stem itself.
    const key = fixtureFileName(entry.request, 1);
    for (let n = this.next.get(key) ?? 1; ; n++) {
      const file = path.join(this.dir, fixtureFileName(entry.request, n));
      try {
        // 'wx' fails on an existing file: a fixture already there (an earlier recording) is kept.
        writeFileSync(file, text, { flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      this.next.set(key, n + 1);
      return file;
    }
  }
}
