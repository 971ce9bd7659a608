import { readFileSync } from 'node:fs';
import path from 'node:path';
import { yaml } from '../yaml';
import { HarnessError, type HarnessErrorCode } from '../errors';

/** One document of a manifest file, with where it came from for error messages. */
export interface SourcedDocument {
  file: string;
  /** 1-based position among the file's documents. */
  doc: number;
  value: unknown;
}

/**
 * Reads every document of YAML or JSON manifest files (Helm and kustomize output included). YAML is
 * read as YAML 1.1, as Kubernetes' sigs.k8s.io/yaml does (`yes` is a boolean, `0755` is octal).
 */
export function parseManifestFiles(files: readonly string[]): SourcedDocument[] {
  return files.flatMap((file) => parseManifestFile(file));
}

/** The documents of one file; an unreadable file is a HarnessError of `code` (the CLI's own inputs are usage errors). */
export function parseManifestFile(file: string, code: HarnessErrorCode = 'MANIFEST_UNREADABLE'): SourcedDocument[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'EISDIR')
      throw new HarnessError(
        code,
        `${file} is a directory, not a manifest file`,
        `name the files in it, e.g. ${path.join(file, '*.yaml')} (the shell expands the pattern)`,
        { cause: error },
      );
    if (errno === 'ENOENT')
      throw new HarnessError(code, `${file}: no such file (looked for ${path.resolve(file)})`, 'pass paths relative to the working directory', {
        cause: error,
      });
    throw new HarnessError(code, `${file}: ${(error as Error).message}`, 'pass paths relative to the working directory', { cause: error });
  }
  return parseManifestText(text, file);
}

export function parseManifestText(text: string, file: string): SourcedDocument[] {
  const documents = yaml().parseAllDocuments(text, { version: '1.1', prettyErrors: true });
  const list = Array.isArray(documents) ? documents : [documents];
  const parsed: SourcedDocument[] = [];
  list.forEach((document, index) => {
    const doc = index + 1;
    const [error] = document.errors;
    if (error) {
      // The first line of a pretty error names the line and column ("… at line 3, column 4:").
      throw new HarnessError('MANIFEST_INVALID', `${file} doc ${doc}: ${error.message.split('\n')[0]}`, 'fix the YAML syntax');
    }
    const value: unknown = document.toJS({ maxAliasCount: 1000 });
    // `---` separators with nothing between them (common in Helm output) are not documents.
    if (value !== null && value !== undefined) parsed.push({ file, doc, value });
  });
  return parsed;
}
