// The source tree reads as kube-apiserver's pipeline only if its folders depend on each other one way:
// these tests read every import (with TypeScript's own pre-processor) and fail on a cycle between folders.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.join(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

/** `lib/call/invoke.ts` → `lib/call`; a file directly under lib (`lib/harness.ts`) is a module of its own. */
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
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['lib/call', 'lib/target', 'lib/stub', 'lib/net', 'lib/authz', 'lib/cel', 'lib/mockapi', 'matchers', 'scenarios']));
    expect(graph.get('lib/stub')).toContain('lib/net');
  });

  it('has no cycle between modules', () => {
    expect(cycles(graph)).toEqual([]);
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
    expect(cycles(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])], ['d', new Set(['a'])]]))).toEqual([['a', 'b', 'c']]);
  });
});
