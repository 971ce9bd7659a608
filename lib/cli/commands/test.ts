import { assertBuiltinPluginNames } from '../../plugins';
import { defineCommand } from '../command';
import { disabledPlugins, PLUGIN_OPTIONS, pluginFlags, TARGET_OPTIONS, targetArgs } from '../options';
import { testCommand } from '../test';

/** `test`: declarative suite files (lib/cli/test.ts, lib/suite/). */
export const testCli = defineCommand({
  name: 'test',
  help: `test     run declarative suite files (exit 1 when a case fails or a file is not a valid suite)
           SUITE... [--module FILE | --command CMD [--ready-timeout SECONDS] | --url URL [--ca FILE]]
           [--json] [--junit FILE] [--disable-admission-plugins NAME,...] [--enable-admission-plugins NAME,...]
           [--admission-control-config-file FILE]
           --disable-admission-plugins: built-in plugins every suite's cluster runs without, besides its own
           --enable-admission-plugins: off-by-default plugins every suite's cluster runs too, besides its own
           suite format: the README, and the JSON Schema admission-harness/suite.schema.json`,
  options: { ...TARGET_OPTIONS, json: { type: 'boolean', default: false }, junit: { type: 'string' }, ...PLUGIN_OPTIONS },
  positionals: true,
  run(values, positionals, out) {
    const disabled = disabledPlugins(values);
    assertBuiltinPluginNames(disabled, '--disable-admission-plugins');
    return testCommand(
      {
        files: positionals,
        ...targetArgs(values),
        json: values.json === true,
        ...(values.junit ? { junit: values.junit } : {}),
        ...(disabled.length > 0 ? { disablePlugins: disabled } : {}),
        ...pluginFlags(values),
      },
      out,
    );
  },
});
