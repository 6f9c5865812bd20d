/**
 * Two published component libraries, their sources as npm ships them: Vue's
 * vue-sonner 2.0.9 (`<script setup lang="ts">` components and .ts modules)
 * and Svelte's svelte-sonner 1.2.1 (.svelte components in TypeScript, .js
 * modules with their .d.ts). Each navigation question from a component's
 * template, from its script and from a module into the components; diag
 * asked twice, after an edit of a template and after taking it back; a
 * rename written and taken back; two questions at once.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const top = mkdtempSync(join(tmpdir(), 'lspq-libraries-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(top, { recursive: true, force: true });
});

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'ESNext',
    moduleResolution: 'Bundler',
    target: 'ES2022',
    noEmit: true,
    verbatimModuleSyntax: true,
    types: [],
  },
  include: ['src'],
};

/** The library's `sources` folder as the project's src/, its packages installed (.tools/node_modules), committed. */
function library(name: string, sources: string, dependencies: Record<string, string>): string {
  const root = join(top, name);
  cpSync(join(REPO, '.tools', 'projects', name, sources), join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, private: true, type: 'module', dependencies }));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  symlinkSync(join(REPO, '.tools', 'node_modules'), join(root, 'node_modules'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', name);
  return root;
}

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');
const renamed = (text: string, from: string, to: string) => text.replace(new RegExp(`\\b${from}\\b`, 'g'), to);

describe('Vue: vue-sonner 2.0.9', () => {
  const vue = library('vue-sonner-2.0.9', 'src/packages', { vue: '3.5.45' });
  const TOASTER_HINTS = [
    "src/Toaster.vue:138:3: hint: 'watch' is declared but its value is never read. [typescript 6133]",
    "src/Toaster.vue:377:20: hint: The signature '(callback: ((this: MediaQueryList, ev: MediaQueryListEvent) => any) | null): void' of 'darkMediaQuery.addListener' is deprecated. [typescript 6387]",
    "src/Toaster.vue:385:22: hint: The signature '(callback: ((this: MediaQueryList, ev: MediaQueryListEvent) => any) | null): void' of 'darkMediaQuery.removeListener' is deprecated. [typescript 6387]",
  ];
  const CN_REFS = [
    'src/Toast.vue:6:7: cn(',
    'src/Toast.vue:57:17: :class="cn(classes?.closeButton, toast?.classes?.closeButton)"',
    'src/Toast.vue:80:35: <div data-icon="" :class="cn(classes?.icon, toast?.classes?.icon)">',
    'src/Toast.vue:92:36: <div data-content="" :class="cn(classes?.content, toast?.classes?.content)">',
    'src/Toast.vue:93:36: <div data-title="" :class="cn(classes?.title, toast.classes?.title)">',
    'src/Toast.vue:106:15: cn(',
    'src/Toast.vue:126:19: :class="cn(classes?.cancelButton, toast.classes?.cancelButton)"',
    'src/Toast.vue:144:19: :class="cn(classes?.actionButton, toast.classes?.actionButton)"',
    "src/Toast.vue:174:31: import { useIsDocumentHidden, cn, getDefaultSwipeDirections } from './hooks'",
    '',
  ].join('\n');

  test('cold: def from a template expression into a .ts module', async () => {
    const r = await lspq.run(['def', 'src/Toaster.vue:28:assignOffset'], { cwd: vue });
    expect([r.stdout, r.exit]).toEqual(['src/hooks.ts:43:17: export function assignOffset(\n', 0]);
  });

  test('def of a component tag in the template: its file', async () => {
    const r = await lspq.run(['def', 'src/Toaster.vue:41:Toast'], { cwd: vue });
    expect([r.stdout, r.exit]).toEqual(['src/Toast.vue:1:1: <template>\n', 0]);
  });

  test('hover in <script setup>', async () => {
    const r = await lspq.run(['hover', 'src/Toaster.vue:156:assignOffset'], { cwd: vue });
    expect([r.stdout, r.exit]).toEqual([
      '```typescript\n(alias) function assignOffset(defaultOffset: ToasterProps["offset"], mobileOffset: ToasterProps["mobileOffset"]): CSSProperties\nimport assignOffset\n```\n',
      0,
    ]);
  });

  test("def and hover at a call in a :class binding (its value is code, not a string), and in @click's", async () => {
    const def = await lspq.run(['def', 'src/Toast.vue:57:cn'], { cwd: vue });
    expect([def.stdout, def.exit]).toEqual([
      'src/hooks.ts:22:17: export function cn(...classes: (string | undefined)[]) {\n',
      0,
    ]);
    const hover = await lspq.run(['hover', 'src/Toast.vue:57:cn'], { cwd: vue });
    expect([hover.stdout, hover.exit]).toEqual([
      '```typescript\n(property) cn: (...classes: (string | undefined)[]) => string\n```\n',
      0,
    ]);
    const handler = await lspq.run(['def', 'src/Toast.vue:58:handleCloseToast'], { cwd: vue });
    expect([handler.stdout, handler.exit]).toEqual(['src/Toast.vue:288:10: function handleCloseToast() {\n', 0]);
  });

  test("refs from a .ts module: every use in a component's script and template", async () => {
    const cn = await lspq.run(['refs', 'src/hooks.ts:22:cn'], { cwd: vue });
    expect([cn.stdout, cn.exit]).toEqual([CN_REFS, 0]);
    const offset = await lspq.run(['refs', 'src/hooks.ts:43:assignOffset'], { cwd: vue });
    expect([offset.stdout, offset.exit]).toEqual([
      "src/Toaster.vue:28:14: ...assignOffset(offset, mobileOffset),\nsrc/Toaster.vue:156:10: import { assignOffset } from './hooks'\n",
      0,
    ]);
  });

  test('diag of two components and a module, twice; a template call broken, then mended', async () => {
    for (let round = 0; round < 2; round++) {
      // Its three hints counted, not listed: --severity hint lists them (below).
      const r = await lspq.run(['diag', 'src/Toaster.vue', 'src/Toast.vue', 'src/hooks.ts'], { cwd: vue });
      expect([r.stdout, r.exit]).toEqual(['3 hints: --severity hint to show\n', 0]);
    }
    const original = read(vue, 'src/Toaster.vue');
    writeFileSync(
      join(vue, 'src/Toaster.vue'),
      original.replace('assignOffset(offset, mobileOffset)', 'assignOffset(offset)'),
    );
    const broken = await lspq.run(['diag', 'src/Toaster.vue', '--severity', 'hint'], { cwd: vue });
    expect([broken.stdout, broken.exit]).toEqual([
      `src/Toaster.vue:28:14: error: Expected 2 arguments, but got 1. [typescript 2554]\n${TOASTER_HINTS.join('\n')}\n`,
      1,
    ]);
    writeFileSync(join(vue, 'src/Toaster.vue'), original);
    const mended = await lspq.run(['diag', 'src/Toaster.vue', '--severity', 'hint'], { cwd: vue });
    expect([mended.stdout, mended.exit]).toEqual([`${TOASTER_HINTS.join('\n')}\n`, 0]);
  });

  test('rename from a .ts module written into the component, then taken back', async () => {
    const before = { toast: read(vue, 'src/Toast.vue'), hooks: read(vue, 'src/hooks.ts') };
    const r = await lspq.run(['rename', 'src/hooks.ts:22:cn', 'joinClasses'], { cwd: vue });
    expect([r.exit, r.stderr]).toEqual([0, "lspq: renamed to 'joinClasses': 10 edits in 2 files\n"]);
    expect(read(vue, 'src/Toast.vue')).toBe(renamed(before.toast, 'cn', 'joinClasses'));
    expect(read(vue, 'src/hooks.ts')).toBe(renamed(before.hooks, 'cn', 'joinClasses'));
    const back = await lspq.run(['rename', 'src/hooks.ts:22:joinClasses', 'cn'], { cwd: vue });
    expect(back.exit).toBe(0);
    expect([read(vue, 'src/Toast.vue'), read(vue, 'src/hooks.ts')]).toEqual([before.toast, before.hooks]);
    const again = await lspq.run(['refs', 'src/hooks.ts:22:cn'], { cwd: vue });
    expect([again.stdout, again.exit]).toEqual([CN_REFS, 0]);
  });

  test('refs and diag at once', async () => {
    const [refs, diag] = await Promise.all([
      lspq.run(['refs', 'src/hooks.ts:22:cn'], { cwd: vue }),
      lspq.run(['diag', 'src/Toaster.vue', '--severity', 'hint'], { cwd: vue }),
    ]);
    expect([refs.stdout, refs.exit, diag.stdout, diag.exit]).toEqual([CN_REFS, 0, `${TOASTER_HINTS.join('\n')}\n`, 0]);
  });
});

describe('Svelte: svelte-sonner 1.2.1', () => {
  const svelte = library('svelte-sonner-1.2.1', 'dist', { svelte: '5.57.3', runed: '0.28.0' });
  const DIAG = [
    'src/Toast.svelte:113:22: warning: This reference only captures the initial value of `toast`. Did you mean to reference it inside a closure instead? https://svelte.dev/e/state_referenced_locally [svelte state_referenced_locally]',
    'src/Toast.svelte:113:40: warning: This reference only captures the initial value of `durationFromToaster`. Did you mean to reference it inside a closure instead? https://svelte.dev/e/state_referenced_locally [svelte state_referenced_locally]',
    "src/Toast.svelte:126:12: hint: 'dismissable' is deprecated. [ts 6385]",
    'src/Toaster.svelte:196:43: warning: This reference only captures the initial value of `theme`. Did you mean to reference it inside a derived instead? https://svelte.dev/e/state_referenced_locally [svelte state_referenced_locally]',
    '',
  ].join('\n');
  const CN_LINES = [66, 507, 514, 524, 574, 585, 613, 617, 631, 655, 677];

  test('cold: def from a template expression to the function in the component script', async () => {
    const r = await lspq.run(['def', 'src/Toaster.svelte:398:getOffsetObject'], { cwd: svelte });
    expect([r.stdout, r.exit]).toEqual(['src/Toaster.svelte:34:11: function getOffsetObject(\n', 0]);
  });

  test('hover in the template', async () => {
    const r = await lspq.run(['hover', 'src/Toaster.svelte:398:getOffsetObject'], { cwd: svelte });
    expect([r.stdout, r.exit]).toEqual([
      '```typescript\nfunction getOffsetObject(defaultOffset: ToasterProps["offset"], mobileOffset: ToasterProps["mobileOffset"]): OffsetObject\n```\n',
      0,
    ]);
  });

  test("refs from a module's declarations: every use in the component (typescript-svelte-plugin)", async () => {
    const r = await lspq.run(['refs', 'src/internal/helpers.d.ts:1:cn'], { cwd: svelte });
    const places = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(': ')[0]);
    const lines = read(svelte, 'src/Toast.svelte').split('\n');
    const expected = CN_LINES.map((n) => `src/Toast.svelte:${n}:${lines[n - 1]!.search(/\bcn\b/) + 1}`);
    expect([places, r.exit]).toEqual([expected, 0]);
  });

  test('diag of two components, twice; a call in the template broken, then mended', async () => {
    for (let round = 0; round < 2; round++) {
      const r = await lspq.run(['diag', 'src/Toaster.svelte', 'src/Toast.svelte', '--severity', 'hint'], {
        cwd: svelte,
      });
      expect([r.stdout, r.exit]).toEqual([DIAG, 0]);
    }
    const original = read(svelte, 'src/Toaster.svelte');
    writeFileSync(
      join(svelte, 'src/Toaster.svelte'),
      original.replace('getOffsetObject(offset, mobileOffset)', 'getOffsetObject(offset)'),
    );
    const broken = await lspq.run(['diag', 'src/Toaster.svelte'], { cwd: svelte });
    expect([broken.stdout, broken.exit]).toEqual([
      `${DIAG.split('\n')[3]}\nsrc/Toaster.svelte:398:27: error: Expected 2 arguments, but got 1. [ts 2554]\n`,
      1,
    ]);
    writeFileSync(join(svelte, 'src/Toaster.svelte'), original);
    const mended = await lspq.run(['diag', 'src/Toaster.svelte'], { cwd: svelte });
    expect([mended.stdout, mended.exit]).toEqual([`${DIAG.split('\n')[3]}\n`, 0]);
  });

  test('rename in a component written, then taken back', async () => {
    const before = read(svelte, 'src/Toaster.svelte');
    const r = await lspq.run(['rename', 'src/Toaster.svelte:34:getOffsetObject', 'offsetsOf'], { cwd: svelte });
    expect([r.exit, r.stderr]).toEqual([0, "lspq: renamed to 'offsetsOf': 2 edits in 1 file\n"]);
    expect(read(svelte, 'src/Toaster.svelte')).toBe(renamed(before, 'getOffsetObject', 'offsetsOf'));
    const back = await lspq.run(['rename', 'src/Toaster.svelte:34:offsetsOf', 'getOffsetObject'], { cwd: svelte });
    expect(back.exit).toBe(0);
    expect(read(svelte, 'src/Toaster.svelte')).toBe(before);
  });

  test('def and diag at once', async () => {
    const [d, g] = await Promise.all([
      lspq.run(['def', 'src/Toaster.svelte:398:getOffsetObject'], { cwd: svelte }),
      lspq.run(['diag', 'src/Toaster.svelte', 'src/Toast.svelte', '--severity', 'hint'], { cwd: svelte }),
    ]);
    expect([d.stdout, d.exit, g.stdout, g.exit]).toEqual([
      'src/Toaster.svelte:34:11: function getOffsetObject(\n',
      0,
      DIAG,
      0,
    ]);
  });

  test("a rename from the declarations names the module's JavaScript it leaves as it was", async () => {
    const r = await lspq.run(['rename', 'src/internal/helpers.d.ts:1:cn', 'joinClasses', '--dry-run'], {
      cwd: svelte,
    });
    expect(r.exit).toBe(0);
    expect(r.stderr).toContain(
      "lspq: warning: 'cn' is still written where typescript-language-server did not rename it (in files outside what it knows): src/internal/helpers.js:1:17",
    );
  });
});
