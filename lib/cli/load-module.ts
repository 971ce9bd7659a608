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
  let exports: Record<string, unknown>;
  try {
    if (/\.[cm]?tsx?$/.test(absolute)) {
      const { createJiti } = await import('jiti');
      exports = (await createJiti(pathToFileURL(__filename).href).import(absolute)) as Record<string, unknown>;
    } else {
      exports = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
    }
  } catch (error) {
    throw new HarnessError('TARGET_INVALID', `could not load --module ${file}: ${(error as Error).message}`, 'the module must load with plain node (or be TypeScript)', { cause: error });
  }
  const candidate = exports.app ?? (exports.default as Record<string, unknown> | undefined)?.app ?? exports.default;
  if (!candidate) {
    throw new HarnessError('TARGET_INVALID', `--module ${file} exports neither \`app\` nor a default export`, 'export the Express/Koa/Fastify app (or a (req, res) handler) as `app` or default');
  }
  return candidate as InProcessApp;
}
