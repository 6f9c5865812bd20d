/**
 * The command's bundle stays small: every question pays to start it. The
 * engine (LSP library, handlers) is the binary's second entry point and must
 * not be folded into the first (it was once, through a constant require).
 */
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleOptions } from '../../scripts/build';

test('the command bundle holds neither the engine nor the LSP library', async () => {
  const outdir = mkdtempSync(join(tmpdir(), 'lspq-bundle-'));
  try {
    const result = await Bun.build({ ...bundleOptions('test'), target: 'bun', outdir, metafile: true });
    expect(result.success).toBe(true);
    const inputs = Object.keys(result.metafile!.outputs['./main.js']!.inputs);
    expect(inputs).toContain('src/cli/daemon-client.ts');
    expect(inputs.filter((f) => f.includes('vscode-') || f.startsWith('src/lsp/') || f.startsWith('src/daemon/') || f === 'src/engine.ts')).toEqual([]);
    expect(inputs.filter((f) => f.includes('node_modules/consola/'))).toEqual([]);
    expect(Object.keys(result.metafile!.outputs['./engine.js']!.inputs)).toContain('src/lsp/client.ts');
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
