/**
 * The commands as the command's process needs them, plain data: imported
 * as a macro (`with { type: 'macro' }`), so the build runs `declarations()`
 * and inlines what it returns. main.ts and --help read the list of commands
 * without carrying (or starting) any command's code.
 *
 * The list is read in a process of its own (this file run as a script):
 * modules a macro imports are evaluated where `require` is not defined,
 * and running from the sources, the command path would later reuse those very
 * modules.
 */
import type { Declaration } from './declaration';
import type { CommandName } from './list';

export function declarations(): Record<CommandName, Declaration> {
  const run = Bun.spawnSync([process.execPath, import.meta.path], { stdin: 'ignore', stderr: 'inherit' });
  if (run.exitCode !== 0) throw new Error("could not read the commands' declarations");
  return JSON.parse(run.stdout.toString());
}

/** Each command's declaration, without its code. */
function declarationOf(c: Declaration): Declaration {
  return {
    summary: c.summary,
    args: c.args,
    examples: c.examples,
    process: c.process,
    ...(c.variadic ? { variadic: true } : {}),
    ...(c.passthrough ? { passthrough: true } : {}),
    ...(c.stream ? { stream: true } : {}),
    ...(c.writes ? { writes: true } : {}),
    ...(c.timeoutSeconds ? { timeoutSeconds: c.timeoutSeconds } : {}),
    ...(c.values ? { values: c.values } : {}),
    ...(c.stdin ? { stdin: c.stdin } : {}),
  };
}

if (import.meta.main) {
  const { COMMANDS } = await import('./list');
  const table = Object.fromEntries(Object.entries(COMMANDS).map(([name, c]) => [name, declarationOf(c)]));
  process.stdout.write(JSON.stringify(table));
}
