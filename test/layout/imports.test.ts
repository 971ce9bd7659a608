// The source tree reads as kube-apiserver's pipeline only if its folders depend on each other one way:
// these tests read every import (with TypeScript's own pre-processor) and fail on a cycle between folders.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import ts from 'typescript';

const root = path.join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** `lib/call/invoke.ts` → `lib/call`; a file directly under lib (`lib/errors.ts`) is a module of its own. */
function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'lib') return parts[0] as string;
  return parts.length > 2 ? `lib/${parts[1]}` : file.replace(/\.ts$/, '');
}

function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier)).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`].find((candidate) => {
    try {
      readFileSync(path.join(root, candidate));
      return true;
    } catch {
      return false;
    }
  });
}

/** module → modules it imports (types included: a type-only cycle still tangles the tree). */
function moduleGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of ['lib', 'matchers', 'scenarios'].flatMap(sources)) {
    const from = moduleOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const imported of ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true).importedFiles) {
      const target = resolve(file, imported.fileName);
      if (target && moduleOf(target) !== from) edges.add(moduleOf(target));
    }
  }
  return graph;
}

/** file → files it imports, for the cycles inside a module that the module graph cannot see. */
function fileGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of ['lib', 'matchers', 'scenarios'].flatMap(sources)) {
    const edges = new Set<string>();
    for (const imported of ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true).importedFiles) {
      const target = resolve(file, imported.fileName);
      if (target) edges.add(target);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Edges from a module of lib/ to matchers/ or scenarios/, the Jest/Vitest-facing adapters that build on lib/. */
function importsIntoAdapters(graph: Map<string, Set<string>>): string[] {
  return [...graph].flatMap(([from, to]) =>
    from.startsWith('lib') ? [...to].filter((m) => m === 'matchers' || m === 'scenarios').map((m) => `${from} → ${m}`) : [],
  );
}

/** Cycles among modules: each strongly connected component of more than one module (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('module dependencies', () => {
  const graph = moduleGraph();

  it('reads every module of lib/, matchers/ and scenarios/', () => {
    expect([...graph.keys()]).toEqual(
      expect.arrayContaining(['lib/call', 'lib/target', 'lib/stub', 'lib/net', 'lib/authz', 'lib/cel', 'lib/mockapi', 'matchers', 'scenarios']),
    );
    expect(graph.get('lib/stub')).toContain('lib/net');
  });

  it("keeps lib/ on its own: no module of lib/ imports matchers/ or scenarios/, which are the runners' adapters over it", () => {
    expect(importsIntoAdapters(graph)).toEqual([]);
  });

  it('finds an import from lib/ into matchers/ or scenarios/ when there is one', () => {
    const tangled = new Map([
      ['lib/cli', new Set(['lib/battery', 'scenarios'])],
      ['lib/report', new Set(['matchers'])],
      ['matchers', new Set(['lib/outcome'])],
    ]);
    expect(importsIntoAdapters(tangled)).toEqual(['lib/cli → scenarios', 'lib/report → matchers']);
  });

  it('has the engines the CLI runs in lib/: the battery, the suite runner and the judgement of an outcome', () => {
    expect([...(graph.get('lib/cli') ?? [])]).toEqual(expect.arrayContaining(['lib/battery', 'lib/suite', 'lib/outcome']));
    expect([...(graph.get('matchers') ?? [])]).toContain('lib/outcome');
    expect([...(graph.get('scenarios') ?? [])]).toEqual(expect.arrayContaining(['lib/battery', 'lib/suite']));
  });

  it('has no cycle between modules', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between files either: a type two files share lives in a third that both import', () => {
    const files = fileGraph();
    expect(files.get('lib/replay/replay-fixture.ts')).toContain('lib/replay/replay-admission.ts');
    expect(cycles(files)).toEqual([]);
  });

  it('serves loopback sockets from a module that neither targets nor stubs own', () => {
    expect(graph.get('lib/stub')).not.toContain('lib/target');
    expect(graph.get('lib/target')).toContain('lib/stub');
    expect(graph.get('lib/net')).toEqual(new Set(['lib/tls']));
  });

  it('keeps the authorizer out of the CEL module: the mock API uses it without CEL', () => {
    expect(graph.get('lib/mockapi')).toContain('lib/authz');
    expect(graph.get('lib/mockapi')).not.toContain('lib/cel');
    expect(graph.get('lib/authz')).toEqual(new Set(['lib/kube']));
  });

  it('finds a cycle when there is one', () => {
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
          ['d', new Set(['a'])],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });
});

describe('runtime dependencies', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  // Bundled into dist by tsup (noExternal): devDependencies that consumers never install.
  const bundled = ['@faker-js/faker', '@marcbachmann/cel-js', 'msw', 're2js'];
  // Modules the matcher types augment (`declare module 'expect'`), which the consumer's Jest provides.
  const augmented = ['expect'];
  const packageName = (specifier: string) => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] as string));
  const imported = new Set(
    ['lib', 'matchers', 'scenarios']
      .flatMap(sources)
      .flatMap((file) => ts.preProcessFile(readFileSync(path.join(root, file), 'utf8'), true, true).importedFiles.map((f) => f.fileName))
      .filter((name) => !name.startsWith('.') && !name.startsWith('node:') && !builtinModules.includes(name))
      .map(packageName),
  );

  it('are what the published code imports: dependencies, the optional vitest peer, or bundled packages', () => {
    const allowed = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...bundled, ...augmented]);
    expect([...imported].filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('include nothing the published code does not import (fast-json-patch is for the tests only)', () => {
    // kubernetes-types is imported for types only, which TypeScript's pre-processor lists like any import.
    expect(Object.keys(pkg.dependencies ?? {}).filter((name) => !imported.has(name))).toEqual([]);
    expect(pkg.devDependencies).toHaveProperty('fast-json-patch');
  });
});
