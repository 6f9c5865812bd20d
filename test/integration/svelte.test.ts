/**
 * Svelte 5: svelteserver in .svelte files, and the TypeScript server for
 * .ts files with typescript-svelte-plugin loaded (as a global plugin, the
 * project's tsconfig naming none), so references and renames from a .ts
 * file reach the components that import it. Before the plugin, refs from
 * lib.ts missed the component with exit 0; TypeScript 7, which loads no
 * plugins, is left out of such a project. Cold and warm, a rename written
 * and taken back, and diag of a broken component.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exactPath, git, Lspq, REPO, toolsPath } from '../helpers/lspq';

const lspq = new Lspq();
const root = mkdtempSync(join(tmpdir(), 'lspq-svelte-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(root, { recursive: true, force: true });
});

const FILES: Record<string, string> = {
  'package.json': '{ "name": "sv", "private": true, "type": "module", "devDependencies": { "svelte": "5.57.3" } }\n',
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "module": "ESNext", "moduleResolution": "Bundler", "target": "ES2022", "noEmit": true, "verbatimModuleSyntax": true, "types": [] }, "include": ["src"] }\n',
  'src/lib.ts': 'export function double(n: number): number {\n  return n * 2;\n}\n',
  'src/Counter.svelte':
    '<script lang="ts">\n  import { double } from \'./lib\';\n  let count = $state(1);\n  const twice = $derived(double(count));\n</script>\n\n<button onclick={() => (count += 1)}>{count} twice is {twice}</button>\n',
  'src/main.ts': "import { double } from './lib';\n\nexport const four = double(2);\n",
};
mkdirSync(join(root, 'src'));
for (const [path, text] of Object.entries(FILES)) writeFileSync(join(root, path), text);
// svelte, its language server and the plugin, as the project's npm install puts them.
symlinkSync(join(REPO, '.tools', 'node_modules'), join(root, 'node_modules'));
git(root, 'init', '-q');

const ts = ['--server', 'typescript-language-server'];
const REFS = [
  "src/Counter.svelte:2:12: import { double } from './lib';",
  'src/Counter.svelte:4:26: const twice = $derived(double(count));',
  "src/main.ts:1:10: import { double } from './lib';",
  'src/main.ts:3:21: export const four = double(2);  (in four)',
  '',
].join('\n');

describe('svelte', () => {
  test('cold: def in a component, from its script into lib.ts', async () => {
    const r = await lspq.run(['def', 'src/Counter.svelte:4:double'], { cwd: root });
    expect([r.stdout, r.exit]).toEqual(['src/lib.ts:1:17: export function double(n: number): number {\n', 0]);
  });

  test('hover in a component', async () => {
    const r = await lspq.run(['hover', 'src/Counter.svelte:4:double'], { cwd: root });
    expect([r.stdout, r.exit]).toEqual(['```typescript\n(alias) double(n: number): number\nimport double\n```\n', 0]);
  });

  test('refs from lib.ts, cold: the component uses it too (typescript-svelte-plugin in tsserver)', async () => {
    const r = await lspq.run(['refs', 'src/lib.ts:1:double', ...ts], { cwd: root });
    expect([r.stdout, r.exit]).toEqual([REFS, 0]);
  });

  test('servers --for lib.ts: the plugin loaded, nothing said unsearched', async () => {
    const r = await lspq.json<{ servers: { id: string; withoutPlugins?: unknown }[] }>(
      ['servers', '--for', 'src/lib.ts', ...ts],
      { cwd: root },
    );
    expect(r.servers.map((s) => [s.id, s.withoutPlugins])).toEqual([['typescript-language-server', undefined]]);
  });

  test('asked again, and without --server: the same', async () => {
    for (const args of [ts, []]) {
      const r = await lspq.run(['refs', 'src/lib.ts:1:double', ...args], { cwd: root });
      expect([r.stdout, r.exit]).toEqual([REFS, 0]);
    }
  });

  test('TypeScript 7 on PATH, which loads no plugins: left out with one line, and the answer is still whole', async () => {
    const PATH = `${join(REPO, 'node_modules', '.bin')}:${toolsPath()}`;
    const r = await lspq.run(['refs', 'src/lib.ts:1:double'], { cwd: root, env: { PATH } });
    expect([r.stdout, r.exit, r.stderr]).toEqual([
      REFS,
      0,
      "lspq: warning: left out typescript: it loads no tsserver plugins, and svelte files import this project's code\n",
    ]);
  });

  test('TypeScript 7 asked for by name: exit 3 saying why, not that it is missing', async () => {
    const PATH = `${join(REPO, 'node_modules', '.bin')}:${toolsPath()}`;
    const r = await lspq.run(['refs', 'src/lib.ts:1:double', '--server', 'typescript'], { cwd: root, env: { PATH } });
    expect([r.stdout, r.exit, r.stderr]).toEqual([
      '',
      3,
      `lspq: typescript cannot answer for ${root} whole: it loads no tsserver plugins, and svelte files import this project's code; drop --server\n`,
    ]);
  });

  test("refs in a component: the template's uses of its state", async () => {
    const r = await lspq.run(['refs', 'src/Counter.svelte:3:count'], { cwd: root });
    expect([r.stdout, r.exit]).toEqual([
      [
        'src/Counter.svelte:4:33: const twice = $derived(double(count));',
        'src/Counter.svelte:7:25: <button onclick={() => (count += 1)}>{count} twice is {twice}</button>',
        'src/Counter.svelte:7:39: <button onclick={() => (count += 1)}>{count} twice is {twice}</button>',
        '',
      ].join('\n'),
      0,
    ]);
  });

  test('rename from lib.ts, written: the component renamed too; renamed back, as before', async () => {
    const renamed = await lspq.run(['rename', 'src/lib.ts:1:double', 'twice2', ...ts], { cwd: root });
    expect(renamed.exit).toBe(0);
    expect(readFileSync(join(root, 'src/Counter.svelte'), 'utf8')).toBe(
      FILES['src/Counter.svelte']!.replaceAll('double', 'twice2'),
    );
    expect(readFileSync(join(root, 'src/main.ts'), 'utf8')).toBe(FILES['src/main.ts']!.replaceAll('double', 'twice2'));
    const back = await lspq.run(['rename', 'src/lib.ts:1:twice2', 'double', ...ts], { cwd: root });
    expect(back.exit).toBe(0);
    for (const path of ['src/Counter.svelte', 'src/main.ts', 'src/lib.ts'])
      expect(readFileSync(join(root, path), 'utf8')).toBe(FILES[path]!);
    const refs = await lspq.run(['refs', 'src/lib.ts:1:double', ...ts], { cwd: root });
    expect([refs.stdout, refs.exit]).toEqual([REFS, 0]);
  });

  test('diag of a broken component, asked twice: its type errors in place', async () => {
    writeFileSync(
      join(root, 'src/Broken.svelte'),
      '<script lang="ts">\n  import { double } from "./lib";\n  let n: number = "x";\n</script>\n\n<p>{double(n)} {missing}</p>\n',
    );
    try {
      for (let i = 0; i < 2; i++) {
        const r = await lspq.run(['diag', 'src/Broken.svelte'], { cwd: root });
        expect([r.stdout, r.exit]).toEqual([
          "src/Broken.svelte:3:7: error: Type 'string' is not assignable to type 'number'. [ts 2322]\nsrc/Broken.svelte:6:17: error: Cannot find name 'missing'. [ts 2304]\n",
          1,
        ]);
      }
    } finally {
      rmSync(join(root, 'src/Broken.svelte'));
    }
  });
});

describe('svelte, with no typescript-svelte-plugin anywhere', () => {
  // The project's node_modules holds svelte alone, and no svelte-language-server is installed to find it beside.
  const bare = mkdtempSync(join(tmpdir(), 'lspq-svelte-bare-'));
  mkdirSync(join(bare, 'src'));
  mkdirSync(join(bare, 'node_modules'));
  for (const [path, text] of Object.entries(FILES)) writeFileSync(join(bare, path), text);
  symlinkSync(join(REPO, '.tools', 'node_modules', 'svelte'), join(bare, 'node_modules', 'svelte'));
  git(bare, 'init', '-q');
  const path = exactPath(['typescript-language-server', 'node']);
  afterAll(() => {
    rmSync(bare, { recursive: true, force: true });
    rmSync(path, { recursive: true, force: true });
  });

  test('refs from lib.ts: the .ts uses, and the component that names it said unsearched (exit 3), cold and again', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await lspq.run(['refs', 'src/lib.ts:1:double', ...ts, '--json'], { cwd: bare, env: { PATH: path } });
      const answer = JSON.parse(r.stdout) as { locations: { path: string; line: number }[]; unsearched?: string[] };
      expect([round, r.exit, answer.locations.map((l) => `${l.path}:${l.line}`), answer.unsearched]).toEqual([
        round,
        3,
        ['src/main.ts:1', 'src/main.ts:3'],
        ['src/Counter.svelte'],
      ]);
      expect(r.stderr).toContain(
        'lspq: not searched: src/Counter.svelte (typescript-language-server knows them only with typescript-svelte-plugin loaded, in a project with svelte installed (npm install -g typescript-svelte-plugin beside svelteserver)); the answer may lack their places',
      );
    }
  });

  test('servers --for lib.ts says so before any question: the plugin it lacks, what goes unsearched, how to install it', async () => {
    const env = { PATH: path };
    const r = await lspq.json<{ servers: { id: string; withoutPlugins?: unknown }[] }>(
      ['servers', '--for', 'src/lib.ts', ...ts],
      { cwd: bare, env },
    );
    expect(r.servers.map((s) => [s.id, s.withoutPlugins])).toEqual([
      [
        'typescript-language-server',
        [
          {
            plugin: 'typescript-svelte-plugin',
            unsearched: ['.svelte'],
            install: 'npm install -g typescript-svelte-plugin beside svelteserver',
          },
        ],
      ],
    ]);
    const text = await lspq.run(['servers', '--for', 'src/lib.ts', ...ts], { cwd: bare, env });
    expect(text.stdout).toContain(
      '\n  without typescript-svelte-plugin: uses in .svelte files go unsearched (npm install -g typescript-svelte-plugin beside svelteserver)\n',
    );
  });
});
