// The README and the pages it links to (docs/*.md, bench/README.md) hold code users copy: every TypeScript
// block is type-checked against the sources, quoted or verbatim blocks are compared with the files they come
// from, the conversion page's spec runs as written, and every relative link leads somewhere.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const root = path.join(__dirname, '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

/** Every page a user reads code on: the README, the docs it links to, the benchmarks' results. */
const PAGES = [
  'README.md',
  'bench/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

interface Block {
  page: string;
  /** 1-based line of the block's first code line on its page. */
  line: number;
  lang: string;
  code: string;
  /** The file a `<!-- verbatim: FILE -->` line before the block says it is. */
  verbatim?: string;
}

/** The fenced code blocks of a page, list-indented ones included (dedented). */
function blocksOf(page: string): Block[] {
  const text = read(page);
  const blocks: Block[] = [];
  for (const match of text.matchAll(/^( *)```(\w*)\n([\s\S]*?)^\1```$/gm)) {
    const [, indent = '', lang = '', body = ''] = match;
    const before = text.slice(0, match.index);
    const verbatim = /<!-- verbatim: (\S+) -->\n$/.exec(before)?.[1];
    const code = body.replace(new RegExp(`^${indent}`, 'gm'), '');
    blocks.push({ page, line: before.split('\n').length + 1, lang, code, ...(verbatim ? { verbatim } : {}) });
  }
  return blocks;
}

const ALL_BLOCKS = PAGES.flatMap(blocksOf);
const TS_BLOCKS = ALL_BLOCKS.filter((b) => b.lang === 'ts');

describe('README', () => {
  const readme = read('README.md');

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

  it('is a front page: the spec, the CLI in CI, then links to every docs page', () => {
    const sections = readme.match(/^## .*/gm);
    expect(sections).toEqual(['## Use it in your project', '## Quick start', '## In CI (GitHub Actions)', '## Documentation', '## Layout']);
    const linked = [...readme.matchAll(/\]\(((?:docs|bench)\/[^)#]+)/g)].map(([, file]) => file);
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect([page, linked.includes(page)]).toEqual([page, true]);
    expect(readme.split('\n').length).toBeLessThan(150);
  });

  it('quick start is the example spec that runs in this suite, verbatim', () => {
    const quickStart = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(quickStart).toBe(read('examples/pod-defaults/test/quickstart.test.ts'));
  });

  it('names the same test command as .ci/run runs', () => {
    expect(read('.ci/run')).toMatch(/^npm test$/m);
  });
});

describe('the docs pages', () => {
  it('show the consumer projects’ files verbatim, so the snippets are what test/consumers type-checks in each setup', () => {
    const verbatim = ALL_BLOCKS.filter((b) => b.verbatim);
    expect(verbatim.map((b) => `${b.page}: ${b.verbatim}`)).toEqual([
      'docs/setup.md: test/consumers/jest-cjs/readme-jest.test.ts',
      'docs/setup.md: test/consumers/jest-esm/readme-esm.ts',
      'docs/setup.md: test/consumers/vitest/readme-vitest.ts',
      'docs/setup.md: test/consumers/vitest/readme-globals.ts',
    ]);
    for (const block of verbatim) expect(block.code).toBe(read(block.verbatim as string));
  });

  it('quote the example specs they name in a first-line comment, line for line', () => {
    const quoted = TS_BLOCKS.flatMap((b) => {
      const file = /^\/\/ (\S+\.ts)\n/.exec(b.code)?.[1];
      return file ? [{ ...b, file }] : [];
    });
    expect(quoted.map((b) => `${b.page}: ${b.file}`)).toEqual(
      expect.arrayContaining(['docs/chain.md: examples/pod-defaults/test/pod-defaults.test.ts', 'docs/object.md: examples/pod-defaults/test/object.test.ts']),
    );
    for (const block of quoted) {
      const source = read(block.file);
      for (const line of block.code.trim().split('\n').slice(1)) expect([block.file, source.includes(line.trim()) ? '' : line]).toEqual([block.file, '']);
    }
  });

  it('show toHavePatchedTo once, in an example that runs, and the matcher has one doc comment', () => {
    const examples = TS_BLOCKS.filter((b) => b.code.includes('toHavePatchedTo('));
    expect(examples.map((b) => b.code.split('\n')[0])).toEqual(['// examples/pod-defaults/test/pod-defaults.test.ts']);
    const docComments = readdirSync(path.join(root, 'matchers'))
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => [...read(`matchers/${name}`).matchAll(/\/\*\*(?:(?!\*\/)[\s\S])*\*\/\s*(?:export function toHavePatchedTo\b|toHavePatchedTo\()/g)]);
    expect(docComments).toHaveLength(1);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = read(page).replace(/^( *)```[\s\S]*?^\1```$/gm, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
        let content: string;
        try {
          content = read(resolved);
        } catch {
          broken.push(`${page}: ${target} (no file)`);
          continue;
        }
        if (anchor && !headingSlugs(content).includes(anchor)) broken.push(`${page}: ${target} (no heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingSlugs(markdown: string): string[] {
  const outside = markdown.replace(/^( *)```[\s\S]*?^\1```$/gm, '');
  return [...outside.matchAll(/^#{1,6} (.*)$/gm)].map(([, title = '']) =>
    title
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
}

/**
 * Names the snippets use without defining them: what the reader's project has (the webhook, its manifests,
 * a client), declared here so that the rest of each snippet is checked against the package's real types.
 */
const SNIPPET_GLOBALS = `
declare const app: import('node:http').RequestListener;
declare const h: import('admission-harness').Harness;
declare const MUTATE: string;
declare const manifests: string[];
declare function createApp(options: { kubeconfig: string }): import('node:http').RequestListener;
declare const k8s: typeof import('@kubernetes/client-node');
declare const kc: import('@kubernetes/client-node').KubeConfig;
declare const core: import('@kubernetes/client-node').CoreV1Api;
declare const seen: unknown[];
declare const api: import('admission-harness').MockApi;
declare const imagePolicyBackend: import('node:http').RequestListener;
declare const conversionWebhook: import('node:http').RequestListener;
`;

/** A snippet that imports nothing from the package uses what the pages around it imported. */
const IMPLICIT_IMPORTS = "import { createHarness, manualClock, objects, review, startMockApi, stub } from 'admission-harness';\n";

describe('every TypeScript block of the README and the docs', () => {
  it('type-checks against the package as published (the consumer setups aside: test/consumers checks those)', () => {
    // The quick start is examples/pod-defaults/test/quickstart.test.ts (above), which `npm test`'s tsc checks in place.
    const quickStart = read('examples/pod-defaults/test/quickstart.test.ts');
    const checked = TS_BLOCKS.filter((b) => !b.verbatim && b.code !== quickStart);
    expect(checked.length).toBeGreaterThanOrEqual(9);
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    );
    if (!config) throw new Error('tsconfig.json did not parse');
    // ES modules (.mts), so a snippet may await at its top level as the docs' fragments do.
    const files = new Map<string, { text: string; block?: Block; offset: number }>();
    files.set(path.join(root, 'test/docs-snippet-globals.d.ts'), { text: SNIPPET_GLOBALS, offset: 0 });
    checked.forEach((block, index) => {
      const prefix = block.code.includes("from 'admission-harness'") ? '' : IMPLICIT_IMPORTS;
      const text = `${prefix}${block.code}\nexport {};\n`;
      files.set(path.join(root, `test/docs-snippet-${index}.mts`), { text, block, offset: prefix ? 1 : 0 });
    });
    const host = ts.createCompilerHost(config.options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (name, language, ...rest) => {
      const virtual = files.get(name);
      return virtual ? ts.createSourceFile(name, virtual.text, language) : getSourceFile.call(host, name, language, ...rest);
    };
    host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
    host.readFile = (name) => files.get(name)?.text ?? readFile.call(host, name);
    // The matchers' declarations, as setupFilesAfterEnv (or the import) gives them to a spec.
    const program = ts.createProgram([...files.keys(), path.join(root, 'matchers/jest.ts')], config.options, host);
    const errors: string[] = [];
    for (const [name, { block, offset }] of files) {
      const source = program.getSourceFile(name);
      if (!source || !block) continue;
      for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
        const line = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line - offset;
        errors.push(`${block.page}:${block.line + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
      }
    }
    expect(errors).toEqual([]);
  });
});

/** The webhook docs/conversion-webhooks.md's spec stands for: spec.color (v1) ⇄ spec.colour (v2), a Failure for ultraviolet. */
function widgetConverter(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => {
    type Widget = { apiVersion: string; spec: { color?: string; colour?: string } };
    const { apiVersion, kind, request } = JSON.parse(body) as {
      apiVersion: string;
      kind: string;
      request: { uid: string; desiredAPIVersion: string; objects: Widget[] };
    };
    const to = request.desiredAPIVersion;
    const refused = request.objects.some((o) => (o.spec.color ?? o.spec.colour) === 'ultraviolet');
    const convertedObjects = refused
      ? []
      : request.objects.map((o) => ({ ...o, apiVersion: to, spec: to.endsWith('/v2') ? { colour: o.spec.color } : { color: o.spec.colour } }));
    const result = refused ? { status: 'Failure', message: 'v2 has no colour "ultraviolet"' } : { status: 'Success' };
    res
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ apiVersion, kind, response: { uid: request.uid, convertedObjects, result } }));
  });
}

describe('docs/conversion-webhooks.md: the spec, run as written beside the CRD the page shows', () => {
  const page = read('docs/conversion-webhooks.md');
  const blocks = blocksOf('docs/conversion-webhooks.md');
  const crd = blocks.find((b) => b.lang === 'yaml' && b.code.startsWith('# deploy/crds/widgets.yaml\n'));
  const spec = blocks.find((b) => b.lang === 'ts' && b.line > page.split('\n').indexOf('## A spec'));
  if (!crd || !spec) throw new Error('docs/conversion-webhooks.md: the CRD (# deploy/crds/widgets.yaml) or the spec under "## A spec" is missing');
  const project = mkdtempSync(path.join(os.tmpdir(), 'ah-docs-conversion-'));
  mkdirSync(path.join(project, 'deploy/crds'), { recursive: true });
  mkdirSync(path.join(project, 'test'));
  writeFileSync(path.join(project, 'deploy/crds/widgets.yaml'), crd.code);
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  const compiled = ts.transpileModule(spec.code, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  // The spec's describe/it register here, as they would in the reader's spec file in project/test.
  new Function('require', 'exports', '__dirname', 'conversionWebhook', compiled)(require, {}, path.join(project, 'test'), widgetConverter);
});
