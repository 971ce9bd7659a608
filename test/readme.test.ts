import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..');

describe('README', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it('starts with the install-and-demo command and the test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock.split('\n')[0]).toMatch(/^npm ci && npm run demo\b/);
    expect(firstBlock.split('\n')[1]).toMatch(/^npm test\b/);
  });

  it('quick start is the example spec that runs in this suite, verbatim', () => {
    const quickStart = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(quickStart).toBe(readFileSync(path.join(root, 'examples/pod-defaults/test/quickstart.test.ts'), 'utf8'));
  });

  it('the object section quotes its example spec', () => {
    const block = /## The object as the API keeps it[\s\S]*?```ts\n\/\/ (\S+)\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const source = readFileSync(path.join(root, block![1]!), 'utf8');
    for (const line of block![2]!.trim().split('\n')) expect(source).toContain(line);
  });

  it('shows the consumer projects’ files verbatim, so the snippets are what test/consumers type-checks in each setup', () => {
    const blocks = [...readme.matchAll(/<!-- verbatim: (\S+) -->\n```\w*\n([\s\S]*?)```/g)];
    expect(blocks.map(([, file]) => file)).toEqual([
      'test/consumers/jest-cjs/readme-jest.test.ts',
      'test/consumers/jest-esm/readme-esm.ts',
      'test/consumers/vitest/readme-vitest.ts',
      'test/consumers/vitest/readme-globals.ts',
    ]);
    for (const [, file, text] of blocks) expect(text).toBe(readFileSync(path.join(root, file as string), 'utf8'));
  });

  it('names the same test command as .ci/run runs', () => {
    expect(readFileSync(path.join(root, '.ci/run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
