// Tiny Jest and Vitest projects in a temporary folder whose two test files run fixtures/two-files.ts,
// run as child processes with admission-harness/reporter. They load the library from this checkout's
// sources (Jest through the project's own swc transform, Vitest through Vite), so they need no build:
// `npm test` on a clean clone runs them. The packed package is test/consumers/'s business.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mainConfig from '../../jest.config';
import type { ReporterOptions } from '../../lib/reporter';
import type { FileName } from './fixtures/two-files';

export const ROOT = path.resolve(__dirname, '../..');
const FIXTURE = path.join(__dirname, 'fixtures/two-files.ts');
const REPORTER = path.join(ROOT, 'lib/reporter/index.ts');

export interface Project {
  dir: string;
  /** Where the test files say which process and thread they ran in. */
  markers: string;
}

export interface RunResult {
  /** The runner's main process. */
  pid: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

export function makeProject(prefix: string): Project {
  const dir = mkdtempSync(path.join(os.tmpdir(), `ah-reporter-${prefix}-`));
  const markers = path.join(dir, 'markers');
  mkdirSync(markers);
  return { dir, markers };
}

function writeTestFiles(dir: string, header: string): void {
  for (const name of ['a', 'b'] satisfies FileName[]) {
    writeFileSync(
      path.join(dir, `${name}.test.ts`),
      `${header}import { runFile } from ${JSON.stringify(FIXTURE)};\n\ntest('file ${name}', () => runFile('${name}'), 150_000);\n`,
    );
  }
}

/** A Jest project; returns the arguments for `node`. */
export function jestProject(project: Project, options: ReporterOptions | Record<string, unknown>): string[] {
  writeTestFiles(project.dir, '');
  // Jest requires reporters untransformed: esbuild-register (which loads this repository's jest.config.ts)
  // compiles the reporter's TypeScript.
  writeFileSync(
    path.join(project.dir, 'reporter.cjs'),
    `require(${JSON.stringify(require.resolve('esbuild-register/dist/node'))}).register({ target: 'node20' });\nmodule.exports = require(${JSON.stringify(REPORTER)});\n`,
  );
  const config = {
    rootDir: project.dir,
    testEnvironment: 'node',
    testMatch: ['<rootDir>/*.test.ts'],
    transform: { '^.+\\.(m?j|t)sx?$': [require.resolve('@swc/jest'), {}] },
    transformIgnorePatterns: mainConfig.transformIgnorePatterns,
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    reporters: ['default', [path.join(project.dir, 'reporter.cjs'), options]],
    maxWorkers: 2,
    // Jest runs fast test files in its main process once its cache knows them; a memory limit makes
    // it use workers every time, which is the case the reporter's directory handover is for.
    workerIdleMemoryLimit: '1GB',
  };
  const configFile = path.join(project.dir, 'jest.config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  return [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', configFile, '--ci'];
}

/** A Vitest project with the given pool; returns the arguments for `node`. */
export function vitestProject(project: Project, options: ReporterOptions | Record<string, unknown>, pool: 'forks' | 'threads'): string[] {
  writeTestFiles(project.dir, "import { test } from 'vitest';\n");
  const config = { test: { include: ['*.test.ts'], pool, maxWorkers: 2, reporters: ['default', [REPORTER, options]] } };
  writeFileSync(path.join(project.dir, 'vitest.config.mjs'), `export default ${JSON.stringify(config, null, 2)};\n`);
  return [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project.dir];
}

/** Runs node with `args` in the project; the deadline only guards against a hung child (under Jest's testTimeout, so its message wins). */
export function run(project: Project, args: string[], deadlineMs = 170_000): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, E2E_MARKERS: project.markers, NO_COLOR: '1', FORCE_COLOR: '0' };
  // The child runner must hand its own directory to its workers, not inherit one.
  delete env.ADMISSION_HARNESS_COVERAGE_DIR;
  delete env.JEST_WORKER_ID;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.slice(0, 2).join(' ')} did not finish in ${deadlineMs} ms:\n${stdout}\n${stderr}`));
    }, deadlineMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ pid: child.pid!, code, stdout, stderr });
    });
  });
}

/** Where each test file ran. */
export function markers(project: Project): Record<FileName, { pid: number; threadId: number }> {
  const read = (name: FileName) => JSON.parse(readFileSync(path.join(project.markers, `${name}.json`), 'utf8')) as { pid: number; threadId: number };
  return { a: read('a'), b: read('b') };
}
