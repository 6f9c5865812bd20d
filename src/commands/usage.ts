/**
 * --help: citty renders a command's flags from the table, and the table's
 * examples close it, the way gh and ripgrep teach. A bundle of its own
 * (src/bundles.ts): only --help needs citty's code.
 */
import { renderUsage } from 'citty';
import { COMMANDS, type CommandName } from './table';

export async function helpFor(name: CommandName): Promise<string> {
  const spec = COMMANDS[name];
  const usage = await renderUsage(
    { meta: { name, description: spec.summary }, args: spec.args },
    { meta: { name: 'lspq' } },
  );
  const examples = spec.examples.map((e) => `  $ ${e}`).join('\n');
  // citty marks usage up with backticks; plain text reads better in a terminal.
  return `${usage.replace(/`/g, '')}\n\nEXAMPLES\n\n${examples}\n`;
}
