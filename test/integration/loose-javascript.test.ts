/**
 * JavaScript with no jsconfig.json or tsconfig.json, the common case: both
 * TypeScript servers give such files an inferred project holding only the
 * files open, so references, renames and callers covered the files asked
 * before and no others (exit 1 with nothing, or 4 of 19 places). Every
 * source file that names the symbol is opened first: the answer is whole,
 * cold and asked again, from either server; and what the server cannot
 * read without a plugin (a published package's .vue components) is named.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const FILES: Record<string, string> = {
  'package.json': '{"name":"loose","type":"module"}\n',
  'lib.js': 'export function helper(x) {\n  return x + 1;\n}\n',
  'a.js': "import { helper } from './lib.js';\nexport const one = helper(1);\n",
  'b.js': "import { helper } from './lib.js';\nexport const two = helper(2);\n",
  'sub/c.js': "import { helper } from '../lib.js';\nexport const three = helper(3);\n",
  'other.js': 'export const unrelated = 1;\n',
};

const REFS = [
  "a.js:1:10: import { helper } from './lib.js';",
  'a.js:2:20: export const one = helper(1);  (in one)',
  "b.js:1:10: import { helper } from './lib.js';",
  'b.js:2:20: export const two = helper(2);  (in two)',
  "sub/c.js:1:10: import { helper } from '../lib.js';",
  'sub/c.js:2:22: export const three = helper(3);  (in three)',
  '',
].join('\n');

describe.each(['typescript', 'typescript-language-server'])('%s', (server) => {
  // Outside lspq's checkout (its tsconfig.json would make a project of it), with TypeScript 7 installed beside it.
  const dir = mkdtempSync(join(tmpdir(), 'lspq-loose-js-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const lspq = new Lspq();
  afterAll(async () => {
    expect(await lspq.stop()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });
  const ask = (args: string[]) => lspq.run([...args, '--server', server], { cwd: dir });

  test('refs from the declaration: every file that uses it, cold and again', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await ask(['refs', 'lib.js:1:helper']);
      expect([round, r.stdout, r.exit]).toEqual([round, REFS, 0]);
    }
  });

  test('a rename reaches every file; callers are all found', async () => {
    const renamed = await lspq.json<{ files: { path: string }[] }>(
      ['rename', 'lib.js:1:helper', 'assist', '--dry-run', '--server', server],
      { cwd: dir },
    );
    expect(renamed.files.map((f) => f.path).sort()).toEqual(['a.js', 'b.js', 'lib.js', 'sub/c.js']);
    const calls = await ask(['calls', 'lib.js:1:helper']);
    expect(calls.exit).toBe(0);
    for (const file of ['a.js', 'b.js', 'sub/c.js']) expect(calls.stdout).toContain(file);
  });
});

describe('vitepress 1.6.3 as npm ships it: JavaScript with no jsconfig, and .vue components', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-vitepress-'));
  cpSync(join(REPO, '.tools', 'projects', 'vitepress-1.6.3'), dir, { recursive: true });
  git(dir, 'init', '-q');
  const lspq = new Lspq();
  afterAll(async () => {
    expect(await lspq.stop()).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  test('refs of useSidebar: every JavaScript use, and the components no plugin lets tsserver read named unsearched (exit 3)', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await lspq.json<{ locations: { path: string; line: number }[]; unsearched?: string[] }>(
        [
          'refs',
          'dist/client/theme-default/composables/sidebar.js:6:useSidebar',
          '--server',
          'typescript-language-server',
        ],
        { cwd: dir },
      );
      expect([round, r.locations.map((l) => `${l.path}:${l.line}`), r.unsearched]).toEqual([
        round,
        [
          'dist/client/theme-default/composables/aside.js:3',
          'dist/client/theme-default/composables/aside.js:5',
          'dist/client/theme-default/without-fonts.js:31',
        ],
        [
          'dist/client/theme-default/Layout.vue',
          'dist/client/theme-default/components/VPContent.vue',
          'dist/client/theme-default/components/VPDoc.vue',
          'dist/client/theme-default/components/VPFooter.vue',
          'dist/client/theme-default/components/VPLocalNav.vue',
          'dist/client/theme-default/components/VPNavBar.vue',
          'dist/client/theme-default/components/VPNavBarTitle.vue',
          'dist/client/theme-default/components/VPSidebar.vue',
        ],
      ]);
    }
  });
});
