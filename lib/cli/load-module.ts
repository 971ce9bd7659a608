import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessError } from '../errors';
import { isInProcessApp, type InProcessApp } from '../target/adapt';

/** The exports `--module` serves, in the order it looks: the first that is an app or a handler wins. */
const LOOKED_FOR = ['app', 'default.app', 'default'] as const;

function exportNamed(exports: Record<string, unknown>, name: (typeof LOOKED_FOR)[number]): unknown {
  if (name === 'default.app') {
    const fallback = exports.default;
    return typeof fallback === 'object' && fallback !== null ? (fallback as Record<string, unknown>).app : undefined;
  }
  return exports[name];
}

/** `server` (object), `createApp` (function): what a module exports, to say beside what was looked for. */
function describeExports(exports: Record<string, unknown>): string {
  const names = Object.keys(exports).filter((name) => name !== '__esModule');
  if (names.length === 0) return 'it exports nothing';
  const shown = names.slice(0, 8).map((name) => `\`${name}\` (${exports[name] === null ? 'null' : typeof exports[name]})`);
  return `it exports ${shown.join(', ')}${names.length > 8 ? ` and ${names.length - 8} more` : ''}`;
}

/**
 * Loads a webhook module for `check --module`: its `app` export, its default export's `app`, or its
 * default export, whichever is first an Express/Koa/Fastify app or a request handler. TypeScript
 * sources load through jiti, so users need no build step.
 */
export async function loadAppModule(file: string): Promise<InProcessApp> {
  const absolute = path.resolve(file);
  if (!existsSync(absolute))
    throw new HarnessError(
      'USAGE',
      `--module ${file}: no such file (looked for ${absolute})`,
      'pass the path of the module that exports the app, relative to the working directory',
    );
  if (statSync(absolute).isDirectory())
    throw new HarnessError('USAGE', `--module ${file} is a directory`, `name the module file in it, e.g. ${path.join(file, 'app.ts')}`);
  let exports: Record<string, unknown>;
  try {
    if (/\.[cm]?tsx?$/.test(absolute)) {
      const { createJiti } = await import('jiti');
      exports = (await createJiti(pathToFileURL(__filename).href).import(absolute)) as Record<string, unknown>;
    } else {
      exports = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    }
  } catch (error) {
    // The first line says what failed; Node's "Require stack:" after it is noise here.
    const reason = String((error as Error).message).split('\n')[0];
    throw new HarnessError(
      'TARGET_INVALID',
      `could not load --module ${file}: ${reason}`,
      'the module must load with plain node (or be TypeScript), its imports installed',
      { cause: error },
    );
  }
  const found = LOOKED_FOR.map((name) => exportNamed(exports, name)).find(isInProcessApp);
  if (!found) {
    throw new HarnessError(
      'TARGET_INVALID',
      `--module ${file} has no usable export: looked for ${LOOKED_FOR.map((name) => `\`${name}\``).join(', ')} (an Express/Koa/Fastify app or a (req, res) handler, in that order); ${describeExports(exports)}`,
      'export the app as `export const app = …` or `export default app`; a factory such as createApp() is not the app: export what it returns',
    );
  }
  return found;
}
