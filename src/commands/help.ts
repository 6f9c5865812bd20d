/**
 * --help: citty renders a command's flags from its declaration, and the
 * declaration's examples close it, the way gh and ripgrep teach. A bundle
 * of its own (src/bundles.ts): only --help needs citty's code; the
 * declarations are inlined data (declarations.ts).
 */
import { renderUsage } from 'citty';
import { declarations } from './declarations' with { type: 'macro' };
import agentsPage from '../../docs/agents.md' with { type: 'text' };

const DECLARATIONS = declarations();

export async function helpFor(name: string): Promise<string> {
  const spec = DECLARATIONS[name as keyof typeof DECLARATIONS];
  if (!spec) return '';
  const usage = await renderUsage(
    { meta: { name, description: spec.summary }, args: spec.args },
    { meta: { name: 'lspq' } },
  );
  const examples = spec.examples.map((e) => `  $ ${e}`).join('\n');
  // citty marks usage up with backticks; plain text reads better in a terminal.
  return `${usage.replace(/`/g, '')}\n\nEXAMPLES\n\n${examples}\n`;
}

/** lspq help agents: what an agent needs in its instructions file (docs/agents.md, inlined). */
export const agents = (): string => agentsPage;

export type HelpBundle = typeof import('./help');
