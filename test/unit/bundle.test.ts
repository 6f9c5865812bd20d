/**
 * The command's bundles stay small: every question pays to start them.
 * main.ts holds only the dispatch; each subcommand is its own entry point
 * (src/entries.ts), and the engine (LSP library, handlers) another, never
 * folded into the others (it was once, through a constant require).
 */
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleOptions } from '../../scripts/build';
import { COMMANDS } from '../../src/cli/index';

const engineCode = (f: string) => f.includes('vscode-') || f.startsWith('src/lsp/') || f.startsWith('src/daemon/') || f === 'src/engine.ts';

test('main.js holds the dispatch only; each command its own code, none the engine', async () => {
  const outdir = mkdtempSync(join(tmpdir(), 'lspq-bundle-'));
  try {
    const result = await Bun.build({ ...bundleOptions('test'), target: 'bun', outdir, metafile: true });
    expect(result.success).toBe(true);
    const inputs = (output: string) => Object.keys(result.metafile!.outputs[output]!.inputs);

    const main = inputs('./main.js');
    expect(main).toContain('src/cli/_flags.ts');
    expect(main.filter((f) => f.startsWith('src/cli/') && f !== 'src/cli/_flags.ts' && f !== 'src/cli/index.ts')).toEqual([]);
    expect(main.filter((f) => f.includes('node_modules/'))).toEqual([]);
    expect(main.filter(engineCode)).toEqual([]);

    for (const name of Object.keys(COMMANDS)) {
      const chunk = inputs(`cli/${name}.js`);
      expect(chunk).toContain(`src/cli/${name}.ts`);
      expect(chunk.filter(engineCode)).toEqual([]);
      expect(chunk.filter((f) => f.includes('node_modules/consola/'))).toEqual([]);
    }
    expect(inputs('cli/def.js')).toContain('src/cli/daemon-client.ts');
    expect(inputs('cli/def.js').filter((f) => f.startsWith('src/git/'))).toEqual([]);
    expect(inputs('./engine.js')).toContain('src/lsp/client.ts');
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
