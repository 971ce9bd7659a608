// The command registry: each command a module, listed once, its help led by its own name.
import { COMMANDS } from '../../lib/cli/commands';
import { cli } from './captured';

describe('the command registry', () => {
  it('lists each command once, its help led by its name, with no option of its own called help', () => {
    const names = COMMANDS.map((command) => command.name);
    expect(names).toEqual(['check', 'explain', 'lint', 'review', 'record', 'replay', 'merge-coverage', 'test']);
    for (const command of COMMANDS) {
      expect(command.help.split(/\s/)[0]).toBe(command.name);
      expect(Object.keys(command.options)).not.toContain('help');
    }
  });

  it('--help shows every registered command, in registry order, and each one’s own help is that text', async () => {
    const usage = (await cli('--help')).stdout;
    const at = COMMANDS.map((command) => usage.indexOf(`\n  ${command.help.split('\n')[0]}\n`));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const command of COMMANDS) {
      const own = (await cli(command.name, '--help')).stdout;
      expect(own.replace(/^usage: admission-harness (\S+) — /, '$1 ').replace(/\s+/, ' ')).toBe(`${command.help.replace(/\s+/, ' ')}\n`);
    }
  });

  it('a command that takes no arguments besides options says so for a stray one', async () => {
    for (const command of COMMANDS.filter((c) => !c.positionals)) {
      const result = await cli(command.name, 'stray');
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`admission-harness: ${command.name}: unexpected argument "stray"`);
    }
  });
});
