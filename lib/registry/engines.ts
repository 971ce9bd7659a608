/**
 * The registry's heavy parts: Go's typed decode, the API's validation of built-in kinds, custom
 * resources' schemas. Together several hundred kilobytes of bundle that `import 'admission-harness'`
 * must not pay for (the bundler gives this module a chunk of its own): the Registry loads it on
 * first use (`Registry.ready()`).
 */
export { decodeObject } from './decode-object';
export { validateObject } from './validate-object';
export { defaultCustomResource, prepareCustomResourceValidation, pruneCustomResource, structuralSchema } from './crd';
