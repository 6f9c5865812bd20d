/**
 * Templates are code: a target in Vue's directive and binding values
 * (`:class="{ big: total > 1 }"`, `v-if`, `v-for`, `@click`, `{{ }}`), in
 * Svelte's braces inside an attribute's quotes (`class="base {flag ? ...}"`)
 * and in JSX's elements (`<p>Don't count {total}</p>`) is answered by the
 * real servers: def, refs and hover there exited 2, "is in a string, not
 * on code". A word of the template's text is still no identifier.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const top = mkdtempSync(join(tmpdir(), 'lspq-templates-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(top, { recursive: true, force: true });
});

const TSCONFIG = (extra: Record<string, unknown>, include: string[]) =>
  JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'ESNext',
      moduleResolution: 'Bundler',
      target: 'ES2022',
      noEmit: true,
      types: [],
      ...extra,
    },
    include,
  });

/** A project of `files`, its packages installed (.tools/node_modules), in a repository. */
function project(name: string, files: Record<string, string>): string {
  const root = join(top, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  symlinkSync(join(REPO, '.tools', 'node_modules'), join(root, 'node_modules'));
  git(root, 'init', '-q');
  return root;
}

describe('Vue: bindings, directives, handlers and {{ }}', () => {
  const TOTAL = [
    '<script setup lang="ts">',
    "import { ref } from 'vue';",
    '',
    'const total = ref(2);',
    'const items = ref([1, 2]);',
    '</script>',
    '',
    '<template>',
    '  <p :class="{ big: total > 1 }" v-if="total > 0">Don\'t lose the total: {{ total }}</p>',
    '  <li v-for="item in items" :key="item" @click="total++">{{ item }}</li>',
    '</template>',
    '',
  ].join('\n');
  const root = project('vue', {
    'package.json': '{ "name": "vt", "private": true, "type": "module", "dependencies": { "vue": "3.5.45" } }\n',
    'tsconfig.json': TSCONFIG({ jsx: 'preserve' }, ['src/**/*.ts', 'src/**/*.vue']),
    'src/Total.vue': TOTAL,
  });
  const run = (args: string[]) => lspq.run(args, { cwd: root });
  const DEF = 'src/Total.vue:4:7: const total = ref(2);\n';

  test('def at total in :class, cold; in v-if (--nth 2), in {{ }} (--nth 3), in @click: its declaration', async () => {
    for (const args of [
      ['def', 'src/Total.vue:9:total'],
      ['def', 'src/Total.vue:9:total', '--nth', '2'],
      ['def', 'src/Total.vue:9:total', '--nth', '3'],
      ['def', 'src/Total.vue:10:total'],
    ])
      expect([args.join(' '), await run(args)]).toEqual([args.join(' '), { stdout: DEF, stderr: '', exit: 0 }]);
  });

  test('def in v-for: the list it walks', async () => {
    expect(await run(['def', 'src/Total.vue:10:items'])).toEqual({
      stdout: 'src/Total.vue:5:7: const items = ref([1, 2]);\n',
      stderr: '',
      exit: 0,
    });
  });

  test('hover at total in :class, asked twice', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await run(['hover', 'src/Total.vue:9:total']);
      expect([r.stdout, r.exit]).toEqual(['```typescript\n(property) total: number\n```\n', 0]);
    }
  });

  test('refs from :class: every use in the template, none in its text', async () => {
    const r = await run(['refs', 'src/Total.vue:9:total']);
    expect([r.stdout, r.exit]).toEqual([
      [
        'src/Total.vue:9:21: <p :class="{ big: total > 1 }" v-if="total > 0">Don\'t lose the total: {{ total }}</p>',
        'src/Total.vue:9:40: <p :class="{ big: total > 1 }" v-if="total > 0">Don\'t lose the total: {{ total }}</p>',
        'src/Total.vue:9:76: <p :class="{ big: total > 1 }" v-if="total > 0">Don\'t lose the total: {{ total }}</p>',
        'src/Total.vue:10:49: <li v-for="item in items" :key="item" @click="total++">{{ item }}</li>',
        '',
      ].join('\n'),
      0,
    ]);
  });

  test("a word of the template's text is still no identifier: exit 2 naming where it is", async () => {
    const r = await run(['def', 'src/Total.vue:9:lose']);
    expect([r.exit, r.stderr]).toEqual([
      2,
      expect.stringContaining("lspq: 'lose' is only in a template's text on line 9 of src/Total.vue, not in code"),
    ]);
  });
});

describe("Svelte: braces inside an attribute's quotes", () => {
  const FLAG = [
    '<script lang="ts">',
    '  let flag = $state(true);',
    '</script>',
    '',
    "<p class=\"base {flag ? 'on' : 'off'}\" title=\"flag\">It's {flag}</p>",
    '',
  ].join('\n');
  const root = project('svelte', {
    'package.json': '{ "name": "st", "private": true, "type": "module", "devDependencies": { "svelte": "5.57.3" } }\n',
    'tsconfig.json': TSCONFIG({ verbatimModuleSyntax: true }, ['src']),
    'src/Flag.svelte': FLAG,
  });
  const run = (args: string[]) => lspq.run(args, { cwd: root });

  test('def and hover at flag in class="base {flag ? ...}", cold and asked again', async () => {
    for (let i = 0; i < 2; i++) {
      expect(await run(['def', 'src/Flag.svelte:5:flag'])).toEqual({
        stdout: 'src/Flag.svelte:2:7: let flag = $state(true);\n',
        stderr: '',
        exit: 0,
      });
      const hover = await run(['hover', 'src/Flag.svelte:5:flag']);
      expect([hover.stdout, hover.exit]).toEqual(['```typescript\nlet flag: true\n```\n', 0]);
    }
  });

  test('refs from the script: the braces in the quotes and in the text, not the plain title="flag"', async () => {
    const r = await run(['refs', 'src/Flag.svelte:2:flag']);
    expect([r.stdout, r.exit]).toEqual([
      [
        "src/Flag.svelte:5:17: <p class=\"base {flag ? 'on' : 'off'}\" title=\"flag\">It's {flag}</p>",
        "src/Flag.svelte:5:58: <p class=\"base {flag ? 'on' : 'off'}\" title=\"flag\">It's {flag}</p>",
        '',
      ].join('\n'),
      0,
    ]);
  });
});

describe("JSX: an element's text with a quote in it, and its {...}", () => {
  const APP = [
    'export function App({ total }: { total: number }) {',
    '  return (',
    "    <p title={total > 1 ? 'many' : 'one'}>",
    "      Don't count {total}",
    '    </p>',
    '  );',
    '}',
    '',
  ].join('\n');
  const root = project('tsx', {
    'package.json': '{ "name": "jt", "private": true, "type": "module" }\n',
    'tsconfig.json': TSCONFIG({ jsx: 'preserve' }, ['src']),
    'src/App.tsx': APP,
  });
  const run = (args: string[]) => lspq.run([...args, '--server', 'typescript-language-server'], { cwd: root });
  const DEF = 'src/App.tsx:1:23: export function App({ total }: { total: number }) {\n';

  test("def at total after Don't, cold; and in the attribute's braces", async () => {
    expect(await run(['def', 'src/App.tsx:4:total'])).toEqual({ stdout: DEF, stderr: '', exit: 0 });
    expect(await run(['def', 'src/App.tsx:3:total'])).toEqual({ stdout: DEF, stderr: '', exit: 0 });
  });

  test('hover and refs there', async () => {
    const hover = await run(['hover', 'src/App.tsx:4:total']);
    expect([hover.stdout, hover.exit]).toEqual(['```typescript\n(parameter) total: number\n```\n', 0]);
    const refs = await run(['refs', 'src/App.tsx:4:total']);
    expect([refs.stdout, refs.exit]).toEqual([
      [
        "src/App.tsx:3:15: <p title={total > 1 ? 'many' : 'one'}>  (in App)",
        "src/App.tsx:4:20: Don't count {total}  (in App)",
        '',
      ].join('\n'),
      0,
    ]);
  });
});
