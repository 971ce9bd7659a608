type YamlModule = typeof import('yaml');

let loaded: YamlModule | undefined;

/**
 * The `yaml` package, loaded on first use: it takes ~25 ms to load, half of what
 * `import 'admission-harness'` would cost, and a harness without manifests never parses YAML. A
 * synchronous require keeps the parsers synchronous.
 */
export function yaml(): YamlModule {
  loaded ??= require('yaml') as YamlModule;
  return loaded;
}
