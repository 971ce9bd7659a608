import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessError } from '../errors';
import type { InProcessApp } from '../target/adapt';

/**
 * Loads a webhook module for `check --module`: its `app` export, or its default export, an
 * Express/Koa/Fastify app or a request handler. TypeScript sources load through jiti, so users need
 * no build step.
 */
export async function loadAppModule(file: string): Promise<InProcessApp> {
  const absolute = path.resolve(file);
  if (!existsSync(absolute)) throw new HarnessError('USAGE', `--module ${file}: no such file (looked for ${absolute})`, 'pass the path of the module that exports the app, relative to the working directory');
  if (statSync(absolute).isDirectory()) throw new HarnessError('USAGE', `--module ${file} is a directory`, `name the module file in it, e.g. ${path.join(file, 'app.ts')}`);
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
    throw new HarnessError('TARGET_INVALID', `could not load --module ${file}: ${reason}`, 'the module must load with plain node (or be TypeScript), its imports installed', { cause: error });
  }
  const candidate = exports.app ?? (exports.default as Record<string, unknown> | undefined)?.app ?? exports.default;
  if (!candidate) {
    throw new HarnessError('TARGET_INVALID', `--module ${file} exports neither \`app\` nor a default export`, 'export the Express/Koa/Fastify app (or a (req, res) handler) as `app` or default');
  }
  return candidate as InProcessApp;
}
