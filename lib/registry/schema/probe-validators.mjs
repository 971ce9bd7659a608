/**
 * What only kubernetes-models' ajv validators know, found by probing them with sample values: whether a
 * number is an integer or a float and its `int32`/`int64` format, and which strings are base64 (`byte`).
 * `build-table.mjs` calls these with the properties it read from the declarations, whose `n` (number)
 * and `s` (string) leaves they refine in place.
 */
import { pathToFileURL } from 'node:url';

/** Fills one probe value into `target[key]` for every leaf of `type` whose placeholder is `leaf`. */
function probeValue(type, leaf, sample) {
  if (type.t === leaf) return sample;
  if (type.t === '[') {
    const inner = probeValue(type.elem, leaf, sample);
    return inner === undefined ? undefined : [inner];
  }
  if (type.t === '{') {
    const inner = probeValue(type.elem, leaf, sample);
    return inner === undefined ? undefined : { k: inner };
  }
  return undefined;
}

/** Applies the validator's verdicts (by instance path) to the leaves the probe filled. */
function applyVerdict(type, pathPrefix, verdicts, refine) {
  if (type.t === '[') return applyVerdict(type.elem, `${pathPrefix}/0`, verdicts, refine);
  if (type.t === '{') return applyVerdict(type.elem, `${pathPrefix}/k`, verdicts, refine);
  refine(type, verdicts.get(pathPrefix) ?? []);
}

export async function probeNumbers(decl, props, problems) {
  const sample = {};
  for (const [name, type] of props) {
    const value = probeValue(type, 'n', 0.5);
    if (value !== undefined) sample[name] = value;
  }
  if (Object.keys(sample).length === 0) return;
  const verdicts = await validateSample(decl, sample);
  for (const [name, type] of props) {
    if (!(name in sample)) continue;
    applyVerdict(type, `/${name}`, verdicts, (leaf, errors) => {
      if (leaf.t !== 'n') return;
      const integer = errors.some((e) => e.keyword === 'type' && e.params?.type === 'integer');
      const format = errors.find((e) => e.keyword === 'format')?.params?.format;
      if (!integer) leaf.t = 'f';
      else if (format === 'int32') leaf.t = 'i';
      else if (format === 'int64') leaf.t = 'l';
      else {
        problems.push(`${decl.id}.${name}: integer without int32/int64 format, taken as int64`);
        leaf.t = 'l';
      }
    });
  }
}

export async function probeBytes(decl, props) {
  const sample = {};
  for (const [name, type] of props) {
    const value = probeValue(type, 's', '!');
    if (value !== undefined && !type.enum) sample[name] = value;
  }
  if (Object.keys(sample).length === 0) return;
  const verdicts = await validateSample(decl, sample);
  for (const [name, type] of props) {
    if (!(name in sample)) continue;
    applyVerdict(type, `/${name}`, verdicts, (leaf, errors) => {
      if (leaf.t === 's' && errors.some((e) => e.keyword === 'format' && e.params?.format === 'byte')) leaf.t = 'y';
    });
  }
}

async function validateSample(decl, sample) {
  const { validate } = await import(pathToFileURL(decl.schemaModule).href);
  validate(sample);
  const verdicts = new Map();
  for (const error of validate.errors ?? []) {
    const list = verdicts.get(error.instancePath) ?? [];
    list.push(error);
    verdicts.set(error.instancePath, list);
  }
  return verdicts;
}
