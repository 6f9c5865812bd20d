/**
 * The command's bundle stays small: every question pays to start it.
 * main.js holds the routing, the command table and the socket client; the
 * engine runs the command line. The bundles are those src/bundles.ts
 * declares, each built from its own entry and never folded into another
 * (the engine once was, through a constant require).
 */
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleOptions } from '../../scripts/build';
import { BUNDLES } from '../../src/bundles';
import { COMMANDS } from '../../src/commands/table';

const lspCode = (f: string) =>
  f.includes('vscode-') || f.startsWith('src/lsp/') || f.startsWith('src/daemon/') || f.startsWith('src/engine/');

test('each bundle holds what src/bundles.ts says, and main.js nothing but the routing', async () => {
  const outdir = mkdtempSync(join(tmpdir(), 'lspq-bundle-'));
  try {
    const result = await Bun.build({ ...bundleOptions('test'), target: 'bun', outdir, metafile: true });
    expect(result.success).toBe(true);
    const outputs = Object.keys(result.metafile!.outputs)
      .map((o) => o.replace(/^\.\//, ''))
      .sort();
    expect(outputs).toEqual(
      Object.values(BUNDLES)
        .map((b) => `${b}.js`)
        .sort(),
    );
    const output = (bundle: keyof typeof BUNDLES) =>
      result.metafile!.outputs[`./${BUNDLES[bundle]}.js`] ?? result.metafile!.outputs[`${BUNDLES[bundle]}.js`]!;
    const inputs = (bundle: keyof typeof BUNDLES) => Object.keys(output(bundle).inputs);

    const main = inputs('main');
    expect(main).toContain('src/cli/forward.ts');
    expect(main).toContain('src/commands/table.ts');
    expect(main.filter(lspCode)).toEqual([]);
    expect(main.filter((f) => f.includes('node_modules/'))).toEqual([]);
    expect(
      main.filter(
        (f) =>
          f.startsWith('src/git/') ||
          f.startsWith('src/render/') ||
          (f.startsWith('src/commands/') && f !== 'src/commands/table.ts'),
      ),
    ).toEqual([]);

    // The command half: every command, its renderers and git, and nothing of the language-server half.
    const commands = inputs('commands');
    for (const file of [
      'src/commands/road.ts',
      'src/commands/questions.ts',
      'src/render/locations.ts',
      'src/git/policy.ts',
    ])
      expect(commands).toContain(file);
    expect(commands.filter(lspCode)).toEqual([]);
    expect(commands.filter((f) => f.includes('node_modules/citty/') || f.includes('node_modules/consola/'))).toEqual(
      [],
    );

    // The daemon runs every forwarded command line: the engine carries the command half.
    const engine = inputs('engine');
    for (const file of ['src/lsp/client.ts', 'src/daemon/server.ts', 'src/commands/road.ts'])
      expect(engine).toContain(file);

    expect(inputs('usage').some((f) => f.includes('node_modules/citty/'))).toBe(true);
    expect(inputs('person').some((f) => f.includes('node_modules/consola/'))).toBe(true);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});

test('every command in the table has a summary and real examples that name it', () => {
  for (const [name, spec] of Object.entries(COMMANDS)) {
    expect(spec.summary.length).toBeGreaterThan(10);
    expect(spec.examples.length).toBeGreaterThanOrEqual(2);
    for (const example of spec.examples) expect(example).toContain(`lspq ${name}`);
  }
});
