/**
 * The command's bundle stays small: every question pays to start it.
 * main.js holds the dispatch and the daemon client; a warm question's
 * command line is run by the daemon. The subcommands are entry points of
 * their own (src/entries.ts), the questions about code together in
 * cli/navigation, and so is the engine (LSP library, handlers), never
 * folded into the others (it was once, through a constant require).
 */
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleOptions } from '../../scripts/build';
import { COMMAND_ENTRIES } from '../../src/cli/index';

const engineCode = (f: string) => f.includes('vscode-') || f.startsWith('src/lsp/') || f.startsWith('src/daemon/') || f === 'src/engine.ts';

test('main.js holds the dispatch and the daemon client: no command, renderer or engine code', async () => {
  const outdir = mkdtempSync(join(tmpdir(), 'lspq-bundle-'));
  try {
    const result = await Bun.build({ ...bundleOptions('test'), target: 'bun', outdir, metafile: true });
    expect(result.success).toBe(true);
    const inputs = (output: string) => Object.keys(result.metafile!.outputs[output]!.inputs);

    const main = inputs('./main.js');
    expect(main).toContain('src/cli/daemon-client.ts');
    expect(main.filter(engineCode)).toEqual([]);
    expect(main.filter((f) => f.includes('node_modules/'))).toEqual([]);
    expect(main.filter((f) => f.startsWith('src/git/') || f.startsWith('src/render/') || f === 'src/cli/def.ts')).toEqual([]);

    // The questions about code: run by the daemon (bundled into the engine) or, for --help and --no-daemon, here.
    const navigation = inputs('cli/navigation.js');
    expect(navigation).toContain('src/cli/def.ts');
    expect(navigation).toContain('src/render/locations.ts');
    expect(navigation.filter(engineCode)).toEqual([]);
    expect(inputs('./engine.js')).toContain('src/cli/navigation.ts');

    for (const name of COMMAND_ENTRIES) {
      const chunk = inputs(`cli/${name}.js`);
      expect(chunk).toContain(`src/cli/${name}.ts`);
      expect(chunk.filter(engineCode)).toEqual([]);
      expect(chunk.filter((f) => f.includes('node_modules/consola/'))).toEqual([]);
    }
    expect(inputs('cli/git.js')).toContain('src/git/policy.ts');
    expect(inputs('./engine.js')).toContain('src/lsp/client.ts');
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
