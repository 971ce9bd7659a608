// Errors a person understands, never a stack trace: one test per message, through the command line as
// a user types it (runCli is the `admission-harness` executable minus process.argv and process.exit).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './captured';
import { version } from '../../package.json';

const root = path.join(__dirname, '../..');
const manifest = path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml');
const app = path.join(root, 'examples/pod-defaults/src/app.ts');

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ah-errors-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A usage or setup error: exit 2, one message on stderr, no stack trace, nothing on stdout. */
function expectUsageError(result: { code: number; stdout: string; stderr: string }, message: string): void {
  expect(result.stderr).toContain(`admission-harness: ${message}`);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).not.toContain('Require stack');
  expect(result.stdout).toBe('');
  expect(result.code).toBe(2);
}

describe('a --junit path that cannot be written is refused before anything runs', () => {
  it('in a folder that does not exist', async () => {
    const file = path.join(tmp, 'missing', 'report.xml');
    expectUsageError(
      await cli('check', '--manifests', manifest, '--module', app, '--junit', file),
      `--junit ${file}: cannot write the report there: the folder ${path.dirname(file)} does not exist\n  hint: create it first`,
    );
  });

  it('that is a directory', async () => {
    const dir = path.join(tmp, 'reports');
    mkdirSync(dir);
    expectUsageError(
      await cli('test', path.join(root, 'test/suites/basic.suite.yaml'), '--junit', dir),
      `--junit ${dir}: cannot write the report there: it is a directory`,
    );
  });
});

describe('--module', () => {
  it('that does not exist: no such file, not a require stack', async () => {
    expectUsageError(
      await cli('check', '--manifests', manifest, '--module', 'src/nope.ts'),
      `--module src/nope.ts: no such file (looked for ${path.resolve('src/nope.ts')})`,
    );
  });

  it('that fails to load: its first line only', async () => {
    const broken = path.join(tmp, 'broken.js');
    writeFileSync(broken, "require('a-package-nobody-installed');\n");
    const result = await cli('check', '--manifests', manifest, '--module', broken);
    expectUsageError(result, `could not load --module ${broken}: Cannot find module 'a-package-nobody-installed'`);
  });

  it('without a usable export: the export names it looks for, and what the module exports instead', async () => {
    const factory = path.join(tmp, 'factory.ts');
    writeFileSync(factory, 'export function createApp() { return (_req: unknown, _res: unknown) => undefined; }\nexport const port = 8443;\n');
    expectUsageError(
      await cli('check', '--manifests', manifest, '--module', factory),
      `--module ${factory} has no usable export: looked for \`app\`, \`default.app\`, \`default\` (an Express/Koa/Fastify app or a (req, res) handler, in that order); it exports \`createApp\` (function), \`port\` (number)\n  hint: export the app as \`export const app = …\` or \`export default app\`; a factory such as createApp() is not the app: export what it returns`,
    );
    // An `app` that is not an app (a port, a promise of one) is not taken for one either.
    const notApp = path.join(tmp, 'not-app.mjs');
    writeFileSync(notApp, 'export const app = Promise.resolve(1);\n');
    expectUsageError(
      await cli('check', '--manifests', manifest, '--module', notApp),
      `--module ${notApp} has no usable export: looked for \`app\`, \`default.app\`, \`default\` (an Express/Koa/Fastify app or a (req, res) handler, in that order); it exports \`app\` (object)`,
    );
  });
});

it('a directory given as a manifest', async () => {
  const dir = path.join(root, 'examples/pod-defaults/deploy');
  expectUsageError(await cli('lint', '--manifests', dir), `${dir} is a directory, not a manifest file\n  hint: name the files in it, e.g. ${dir}/*.yaml`);
});

describe('help and version', () => {
  it.each(['check', 'explain', 'lint', 'review', 'record', 'replay', 'merge-coverage', 'test'])('%s --help prints that command’s usage', async (command) => {
    const result = await cli(command, '--help');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(new RegExp(`^usage: admission-harness ${command} — `));
    expect((await cli(command, '-h')).stdout).toBe(result.stdout);
  });

  it('--help lists every command; no command at all is a usage error', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const command of ['check', 'explain', 'lint', 'review', 'test', '--version']) expect(help.stdout).toContain(`  ${command} `);
    expect((await cli()).code).toBe(2);
  });

  it('--version prints the package version', async () => {
    expect(await cli('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('mistyped command lines', () => {
  it('an unknown option, with the nearest known one', async () => {
    expectUsageError(
      await cli('check', '--manifest', manifest),
      'check: unknown option --manifest (did you mean "--manifests"?)\n  hint: run `admission-harness check --help`',
    );
  });

  it('an unknown command, with the nearest known one', async () => {
    expectUsageError(await cli('chekc'), 'unknown command "chekc" (did you mean "check"?)');
  });

  it('an unknown command that names a member every object has is unknown all the same', async () => {
    expect((await cli('toString')).code).toBe(2);
    expect((await cli('constructor')).stderr).toMatch(/^admission-harness: unknown command "constructor"/);
  });

  it('a number that is not one', async () => {
    expectUsageError(await cli('check', '--manifests', manifest, '--module', app, '--time-scale', 'fast'), '--time-scale takes a positive number, got "fast"');
  });
});
