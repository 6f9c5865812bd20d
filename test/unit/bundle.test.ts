/**
 * The command's bundle stays small: every question pays to start it.
 * main.js holds the routing, the commands' declarations (inlined as data)
 * and the socket client; the engine runs the command line. The bundles are
 * those src/bundles.ts declares, each built from its own entry and never
 * folded into another (the engine once was, through a constant require).
 * Loading the engine evaluates the command path, not the language-server half: its
 * entry's static imports (what runs at load) reach no LSP client, handler
 * or daemon code; those load when a question or the daemon needs them.
 */
import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { bundleOptions } from '../../scripts/build';
import { BUNDLES } from '../../src/bundles';
import { COMMANDS } from '../../src/commands/list';
import { REPO } from '../helpers/lspq';

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
    expect(main.filter(lspCode)).toEqual([]);
    expect(main.filter((f) => f.includes('node_modules/'))).toEqual([]);
    // The commands' declarations are inlined as data: not one command's code.
    expect(
      main.filter((f) => f.startsWith('src/commands/') || f.startsWith('src/git/') || f.startsWith('src/render/')),
    ).toEqual([]);
    const mainText = readFileSync(join(outdir, 'main.js'), 'utf8');
    for (const name of Object.keys(COMMANDS))
      expect(mainText).toContain(COMMANDS[name as keyof typeof COMMANDS].summary);

    // The daemon runs every forwarded command line: the engine carries the command path, the handlers and the daemon.
    const engine = inputs('engine');
    for (const file of [
      'src/commands/run-command-line.ts',
      'src/commands/refs/command.ts',
      'src/commands/refs/handler.ts',
      'src/lsp/client.ts',
      'src/daemon/server.ts',
      'src/git/policy.ts',
    ])
      expect(engine).toContain(file);
    expect(engine.filter((f) => f.includes('node_modules/citty/') || f.includes('node_modules/consola/'))).toEqual([]);

    expect(inputs('help').some((f) => f.includes('node_modules/citty/'))).toBe(true);
    expect(inputs('help').filter((f) => f.startsWith('src/commands/') && f !== 'src/commands/help.ts')).toEqual([]);
    expect(inputs('terminal').some((f) => f.includes('node_modules/consola/'))).toBe(true);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});

/** The files a module evaluates when it loads: its static imports, followed; dynamic import() is not followed. */
function loadedAtStart(entry: string): string[] {
  const transpiler = new Bun.Transpiler({ loader: 'ts' });
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith('.ts')) return;
    for (const i of transpiler.scanImports(readFileSync(file, 'utf8'))) {
      if (i.kind !== 'import-statement' && i.kind !== 'require-call') continue;
      if (!i.path.startsWith('.')) {
        seen.add(`node_modules/${i.path}`);
        continue;
      }
      const base = resolve(dirname(file), i.path);
      const found = [`${base}.ts`, join(base, 'index.ts'), base].find((f) => {
        try {
          return readFileSync(f) && true;
        } catch {
          return false;
        }
      });
      if (found) visit(found);
    }
  };
  visit(join(REPO, 'src', `${entry}.ts`));
  return [...seen].map((f) => (f.startsWith('/') ? relative(REPO, f) : f)).sort();
}

test('loading the engine evaluates the command path, not the language-server half', () => {
  const loaded = loadedAtStart(BUNDLES.engine);
  expect(loaded).toContain('src/commands/run-command-line.ts');
  expect(loaded).toContain('src/commands/refs/command.ts');
  expect(loaded.filter(lspCode)).toEqual([]);
  expect(loaded.filter((f) => f.endsWith('/handler.ts'))).toEqual([]);
});

test('every command has a summary and real examples that name it', () => {
  for (const [name, spec] of Object.entries(COMMANDS)) {
    expect(spec.summary.length).toBeGreaterThan(10);
    expect(spec.examples.length).toBeGreaterThanOrEqual(2);
    for (const example of spec.examples) expect(example).toContain(`lspq ${name}`);
  }
});
