/**
 * Vue 3 single-file components (`<script setup lang="ts">`), answered in
 * hybrid mode's way: typescript-language-server reads .vue files through
 * @vue/typescript-plugin (a global plugin; the tsconfig names none), in the
 * script and in the template's expressions. Before, def and hover in
 * App.vue waited out the timeout on vue-language-server, and refs of a .ts
 * function missed its uses in the component (exit 1). vue-language-server
 * answers nothing until its tsserver/request notifications are relayed to
 * that TypeScript server: lspq relays them, and its own diagnostics of the
 * template join TypeScript's.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const root = mkdtempSync(join(tmpdir(), 'lspq-vue-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(root, { recursive: true, force: true });
});

const APP = `<script setup lang="ts">
import { ref } from 'vue';
import { double } from './math';

const count = ref(1);
const twice = double(count.value);
</script>

<template>
  <button @click="count++">{{ count }} twice is {{ twice }} {{ double(3) }}</button>
</template>
`;
const FILES: Record<string, string> = {
  'package.json': '{ "name": "vp", "private": true, "type": "module", "dependencies": { "vue": "3.5.45" } }\n',
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "module": "ESNext", "moduleResolution": "Bundler", "target": "ES2022", "noEmit": true, "jsx": "preserve", "types": [] }, "include": ["src/**/*.ts", "src/**/*.vue"] }\n',
  'src/math.ts': 'export function double(n: number): number {\n  return n * 2;\n}\n',
  'src/App.vue': APP,
};
mkdirSync(join(root, 'src'));
for (const [path, text] of Object.entries(FILES)) writeFileSync(join(root, path), text);
// vue, the plugin and the TypeScript server, as the project's npm install puts them.
symlinkSync(join(REPO, '.tools', 'node_modules'), join(root, 'node_modules'));
git(root, 'init', '-q');

const ask = (args: string[]) => lspq.run([...args, '--server', 'typescript-language-server'], { cwd: root });
const DEF = 'src/math.ts:1:17: export function double(n: number): number {\n';
const REFS = [
  "src/App.vue:3:10: import { double } from './math';",
  'src/App.vue:6:15: const twice = double(count.value);',
  'src/App.vue:10:64: <button @click="count++">{{ count }} twice is {{ twice }} {{ double(3) }}</button>',
  '',
].join('\n');

describe('vue', () => {
  test('cold: def in <script setup>, into math.ts', async () => {
    const r = await ask(['def', 'src/App.vue:6:double']);
    expect([r.stdout, r.exit]).toEqual([DEF, 0]);
  });

  test("def in the template's expression, and without --server: the same", async () => {
    const r = await ask(['def', 'src/App.vue:10:double']);
    expect([r.stdout, r.exit]).toEqual([DEF, 0]);
    const plain = await lspq.run(['def', 'src/App.vue:10:double'], { cwd: root });
    expect([plain.stdout, plain.exit]).toEqual([DEF, 0]);
  });

  test('hover in the script and in the template', async () => {
    const script = await ask(['hover', 'src/App.vue:6:twice']);
    expect([script.stdout, script.exit]).toEqual(['```typescript\nconst twice: number\n```\n', 0]);
    const template = await ask(['hover', 'src/App.vue:10:count']);
    expect([template.stdout, template.exit]).toEqual(['```typescript\n(property) count: number\n```\n', 0]);
  });

  test("symbols of a component: vue-language-server's outline (its blocks, the script's names, the template's elements)", async () => {
    const r = await lspq.run(['symbols', 'src/App.vue'], { cwd: root });
    expect([r.stdout, r.exit]).toEqual([
      [
        'src/App.vue:1:1: module script setup',
        'src/App.vue:5:7:   variable count',
        'src/App.vue:6:7:   variable twice',
        'src/App.vue:9:1: module template',
        'src/App.vue:10:3:   field button',
        '',
      ].join('\n'),
      0,
    ]);
  });

  test("refs from math.ts: the component's import, script and template uses", async () => {
    for (let i = 0; i < 2; i++) {
      const r = await ask(['refs', 'src/math.ts:1:double']);
      expect([r.stdout, r.exit]).toEqual([REFS, 0]);
    }
  });

  test('rename from math.ts, written: the component renamed in script and template; renamed back, as before', async () => {
    const renamed = await ask(['rename', 'src/math.ts:1:double', 'triple']);
    expect(renamed.exit).toBe(0);
    expect(readFileSync(join(root, 'src/App.vue'), 'utf8')).toBe(APP.replaceAll('double', 'triple'));
    const back = await ask(['rename', 'src/math.ts:1:triple', 'double']);
    expect(back.exit).toBe(0);
    for (const path of ['src/App.vue', 'src/math.ts'])
      expect(readFileSync(join(root, path), 'utf8')).toBe(FILES[path]!);
  });

  test("diag of a broken component, asked twice: TypeScript's errors and vue-language-server's own, its TypeScript questions relayed", async () => {
    writeFileSync(
      join(root, 'src/Broken.vue'),
      '<script setup lang="ts">\nconst n: number = "x";\n</script>\n\n<template>\n  <p>{{ n }} {{ missing }}</p>\n  <div v-if>\n</template>\n',
    );
    try {
      for (let i = 0; i < 2; i++) {
        const r = await lspq.run(['diag', 'src/Broken.vue', '--json'], { cwd: root });
        const answer = JSON.parse(r.stdout) as {
          diagnostics: { line: number; column: number; code: number; source: string }[];
          servers: { server: string }[];
        };
        expect([answer.diagnostics.map((d) => `${d.line}:${d.column}:${d.source} ${d.code}`), r.exit]).toEqual([
          ['2:7:typescript 2322', '6:17:typescript 2339', '7:3:vue 24', '7:8:vue 28'],
          1,
        ]);
        expect(answer.servers.map((s) => s.server)).toEqual(['typescript-language-server', 'vue-language-server']);
      }
    } finally {
      rmSync(join(root, 'src/Broken.vue'));
    }
  });
});
