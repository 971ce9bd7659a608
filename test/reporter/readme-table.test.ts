// docs/coverage.md prints the admission coverage of the bundled example's specs: this runs them as a user
// would (Jest with admission-harness/reporter, in a child process) and holds the page to the output.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeProject, ROOT } from './e2e';

it("docs/coverage.md's coverage table is what the reporter prints for examples/pod-defaults", () => {
  const project = makeProject('readme');
  try {
    // Jest requires reporters untransformed: esbuild-register compiles the reporter's TypeScript.
    const reporter = path.join(project.dir, 'reporter.cjs');
    writeFileSync(
      reporter,
      `require(${JSON.stringify(require.resolve('esbuild-register/dist/node'))}).register({ target: 'node20' });\nmodule.exports = require(${JSON.stringify(path.join(ROOT, 'lib/reporter/index.ts'))});\n`,
    );
    // From the repository, with its own config, as `npx jest examples/pod-defaults` runs them.
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
    delete env.ADMISSION_HARNESS_COVERAGE_DIR;
    delete env.JEST_WORKER_ID;
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--ci', 'examples/pod-defaults', '--reporters=default', `--reporters=${reporter}`],
      { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 },
    );
    expect(result.stderr).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(result.status).toBe(0);
    const printed = /(Admission webhook[\s\S]*?)\n\n/.exec(result.stderr)?.[1];
    const readme = readFileSync(path.join(ROOT, 'docs/coverage.md'), 'utf8');
    const documented = /For the bundled example's specs[\s\S]*?```\n(Admission webhook[\s\S]*?)\n```/.exec(readme)?.[1];
    expect(documented).toBeDefined();
    expect(printed).toBe(documented);
  } finally {
    rmSync(project.dir, { recursive: true, force: true });
  }
});
