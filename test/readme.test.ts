import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..');

describe('README', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

  it('starts with the install-and-demo command and the test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock.split('\n')[0]).toMatch(/^npm ci && npm run demo\b/);
    expect(firstBlock.split('\n')[1]).toMatch(/^npm test\b/);
  });

  it('says next how to use it in a project of one’s own: install from npm, then the smallest spec; contributor notes come later', () => {
    const afterFirstBlock = readme.slice(readme.indexOf('```', readme.indexOf('```sh') + 3) + 3).trimStart();
    expect(afterFirstBlock.split('\n')[0]).toBe('## Use it in your project');
    const blocks = [...afterFirstBlock.matchAll(/```(\w*)\n([\s\S]*?)```/g)];
    expect(blocks[0]?.[2]).toBe('npm i -D admission-harness\n');
    // The next code block is the quick start's spec, with no other section between.
    const between = afterFirstBlock.slice(0, blocks[1]?.index).match(/^## .*/gm);
    expect(between).toEqual(['## Use it in your project', '## Quick start']);
    expect(blocks[1]?.[1]).toBe('ts');
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock).not.toContain('Chromium');
    expect(readme.slice(readme.indexOf('## Layout'))).toContain('needs Chromium (`apt-get install chromium`)');
  });

  it('shows toHavePatchedTo once, in an example that runs, and the matcher has one doc comment', () => {
    const examples = [...readme.matchAll(/```ts\n\/\/ (\S+)\n([\s\S]*?)```/g)].filter(([, , code]) => code?.includes('toHavePatchedTo('));
    expect(examples).toHaveLength(1);
    expect([...readme.matchAll(/```ts\n[\s\S]*?```/g)].filter(([block]) => block.includes('toHavePatchedTo(')).length).toBe(1);
    const [, file, code] = examples[0] as RegExpMatchArray;
    const source = readFileSync(path.join(root, file as string), 'utf8');
    for (const line of (code as string).trim().split('\n')) expect(source).toContain(line.trim());
    const docComments = readdirSync(path.join(root, 'matchers'))
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => [
        ...readFileSync(path.join(root, 'matchers', name), 'utf8').matchAll(
          /\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*(?:export function toHavePatchedTo\b|toHavePatchedTo\()/g,
        ),
      ]);
    expect(docComments).toHaveLength(1);
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
