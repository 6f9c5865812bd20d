/**
 * Tailwind CSS (@tailwindcss/language-server) beside each file's own
 * server: a Tailwind 4 project (a stylesheet importing tailwindcss, no
 * configuration file) and a Tailwind 3 one (tailwind.config.js), each with
 * its real tailwindcss installed. It builds a project when a file of it is
 * first opened and publishes after every change, an empty list included,
 * over two seconds later on a cold project: before, diag answered "no
 * problems" before it had said anything (exit 0), and a hover in an .html
 * file was the HTML server's empty one (exit 1). Cold and warm, after an
 * edit and after taking it back, --staged, --since, its fix applied, two questions
 * at once, and its configuration (code) run only when trusted.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const untrusted = new Lspq({ trusting: false });
const top = mkdtempSync(join(tmpdir(), 'lspq-tailwind-'));
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  expect(await untrusted.stop()).toEqual([]);
  rmSync(top, { recursive: true, force: true });
});

/** A project of `files`, its node_modules the one tailwindcss `major` is installed in, committed. */
function project(name: string, major: 3 | 4, files: Record<string, string>): string {
  const root = join(top, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  symlinkSync(join(REPO, '.tools', `tailwind${major}`, 'node_modules'), join(root, 'node_modules'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  return root;
}

const PAGE =
  '<!doctype html>\n<html>\n  <body>\n    <div class="p-2 p-4 text-red-500">conflict</div>\n  </body>\n</html>\n';
const CSS = '@import "tailwindcss";\n\n.btn {\n  @apply px-4 py-2 rounded;\n}\n';
const BUTTON = 'export const Button = () => <button className="flex grid font-bold">go</button>;\n';
const v4 = project('v4', 4, {
  'package.json': '{ "name": "tw4", "private": true, "devDependencies": { "tailwindcss": "4.3.5" } }\n',
  'index.html': PAGE,
  'src/app.css': CSS,
  'src/Button.tsx': BUTTON,
  'src/jsx.d.ts':
    'declare namespace JSX {\n  interface IntrinsicElements {\n    [name: string]: Record<string, unknown>;\n  }\n}\n',
  'tsconfig.json': '{ "compilerOptions": { "strict": true, "jsx": "preserve", "noEmit": true }, "include": ["src"] }\n',
});

const PAGE_WARNINGS = [
  "index.html:4:17: warning: 'p-2' applies the same CSS properties as 'p-4'. [tailwindcss cssConflict]",
  "index.html:4:21: warning: 'p-4' applies the same CSS properties as 'p-2'. [tailwindcss cssConflict]",
  '',
].join('\n');
const BUTTON_WARNINGS = [
  "src/Button.tsx:1:48: warning: 'flex' applies the same CSS properties as 'grid'. [tailwindcss cssConflict]",
  "src/Button.tsx:1:53: warning: 'grid' applies the same CSS properties as 'flex'. [tailwindcss cssConflict]",
  '',
].join('\n');
const P4_HOVER = '```css\n.p-4 {\n  padding: calc(var(--spacing) * 4) /* 1rem = 16px */;\n}\n```\n';

describe('Tailwind 4: a stylesheet that imports tailwindcss', () => {
  test('cold: diag of an .html file has its class conflicts (it published 2 s after the HTML server answered)', async () => {
    const r = await lspq.run(['diag', 'index.html'], { cwd: v4 });
    expect([r.stdout, r.stderr, r.exit]).toEqual([PAGE_WARNINGS, 'lspq: 2 warnings in 1 file\n', 0]);
  });

  test('asked again with nothing changed: the same', async () => {
    const r = await lspq.run(['diag', 'index.html'], { cwd: v4 });
    expect([r.stdout, r.exit]).toEqual([PAGE_WARNINGS, 0]);
  });

  test("hover on a class: Tailwind's CSS for it, the HTML server having nothing there", async () => {
    const r = await lspq.run(['hover', 'index.html:4:p-4'], { cwd: v4 });
    expect([r.stdout, r.exit]).toEqual([P4_HOVER, 0]);
    const json = await lspq.json<{ server: string }>(['hover', 'index.html:4:p-4'], { cwd: v4 });
    expect(json.server).toBe('tailwindcss-language-server');
  });

  test("a .tsx file: Tailwind's conflicts beside TypeScript's answer (none)", async () => {
    const r = await lspq.run(['diag', 'src/Button.tsx'], { cwd: v4 });
    expect([r.stdout, r.exit]).toEqual([BUTTON_WARNINGS, 0]);
    const json = await lspq.json<{ servers: { server: string }[] }>(['diag', 'src/Button.tsx'], { cwd: v4 });
    expect(json.servers.map((s) => s.server).sort()).toEqual([
      'tailwindcss-language-server',
      'typescript-language-server',
    ]);
  });

  test('diag --all: every file of the project, once', async () => {
    const r = await lspq.run(['diag', '--all'], { cwd: v4 });
    expect([r.stdout, r.exit]).toEqual([PAGE_WARNINGS + BUTTON_WARNINGS, 0]);
  });

  test('the stylesheet edited on disk (a screen its theme lacks), then taken back', async () => {
    writeFileSync(join(v4, 'src/app.css'), `${CSS}\n@screen bogus {\n  .x { color: red; }\n}\n`);
    const broken = await lspq.run(['diag', 'src/app.css'], { cwd: v4 });
    expect([broken.stdout, broken.exit]).toEqual([
      "src/app.css:7:9: error: The screen 'bogus' does not exist in your theme config. [tailwindcss invalidScreen]\n",
      1,
    ]);
    writeFileSync(join(v4, 'src/app.css'), CSS);
    const mended = await lspq.run(['diag', 'src/app.css'], { cwd: v4 });
    expect([mended.stdout, mended.exit]).toEqual(['', 0]);
  });

  test('diag and hover of the same file at once: each its own answer', async () => {
    const [d, h] = await Promise.all([
      lspq.run(['diag', 'index.html'], { cwd: v4 }),
      lspq.run(['hover', 'index.html:4:p-4'], { cwd: v4 }),
    ]);
    expect([d.stdout, d.exit, h.stdout, h.exit]).toEqual([PAGE_WARNINGS, 0, P4_HOVER, 0]);
  });

  test("diag --staged: Tailwind reads the staged text, not the work tree's", async () => {
    writeFileSync(
      join(v4, 'index.html'),
      PAGE.replace('conflict</div>', 'conflict</div>\n    <p class="m-1 m-2">x</p>'),
    );
    git(v4, 'add', 'index.html');
    writeFileSync(join(v4, 'index.html'), PAGE);
    const r = await lspq.run(['diag', '--staged'], { cwd: v4 });
    expect([r.stdout, r.exit]).toEqual([
      `${PAGE_WARNINGS}index.html:5:15: warning: 'm-1' applies the same CSS properties as 'm-2'. [tailwindcss cssConflict]\nindex.html:5:19: warning: 'm-2' applies the same CSS properties as 'm-1'. [tailwindcss cssConflict]\n`,
      0,
    ]);
    git(v4, 'reset', '-q', 'index.html');
    const after = await lspq.run(['diag', 'index.html'], { cwd: v4 });
    expect([after.stdout, after.exit]).toEqual([PAGE_WARNINGS, 0]);
  });

  test('diag --since HEAD: only the conflict the change brought', async () => {
    writeFileSync(
      join(v4, 'index.html'),
      PAGE.replace('conflict</div>', 'conflict</div>\n    <p class="m-1 m-2">x</p>'),
    );
    const r = await lspq.run(['diag', 'index.html', '--since', 'HEAD'], { cwd: v4 });
    expect([r.stdout, r.exit]).toEqual([
      "index.html:5:15: warning: 'm-1' applies the same CSS properties as 'm-2'. [tailwindcss cssConflict]\nindex.html:5:19: warning: 'm-2' applies the same CSS properties as 'm-1'. [tailwindcss cssConflict]\n",
      0,
    ]);
    writeFileSync(join(v4, 'index.html'), PAGE);
  });

  test('its fix applied with actions, diag after it clean; the edit taken back, the conflicts again', async () => {
    const listed = await lspq.json<{ actions: { index: number; title: string; server: string }[] }>(
      ['actions', 'index.html:4:17'],
      { cwd: v4 },
    );
    const fix = listed.actions.find((a) => a.title === "Delete 'p-4'");
    expect(fix?.server).toBe('tailwindcss-language-server');
    const r = await lspq.run(['actions', 'index.html:4:17', '--apply', String(fix!.index)], { cwd: v4 });
    expect([r.exit, r.stderr]).toEqual([0, `lspq: applied ${fix!.index}: Delete 'p-4'\n`]);
    expect(readFileSync(join(v4, 'index.html'), 'utf8')).toBe(PAGE.replace('p-2 p-4', 'p-2'));
    const clean = await lspq.run(['diag', 'index.html'], { cwd: v4 });
    expect([clean.stdout, clean.exit]).toEqual(['', 0]);
    writeFileSync(join(v4, 'index.html'), PAGE);
    const again = await lspq.run(['diag', 'index.html'], { cwd: v4 });
    expect([again.stdout, again.exit]).toEqual([PAGE_WARNINGS, 0]);
  });
});

describe('Tailwind 3: tailwind.config.js, which is code', () => {
  const marker = join(top, 'config-ran');
  const v3 = project('v3', 3, {
    'package.json': '{ "name": "tw3", "private": true, "devDependencies": { "tailwindcss": "3.4.19" } }\n',
    // Loading the configuration runs it: it leaves a marker when it does.
    'tailwind.config.js': `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { content: ['./*.html'], theme: { extend: {} }, plugins: [] };\n`,
    'main.css': '@tailwind base;\n@tailwind components;\n@tailwind utilities;\n\n.card {\n  @apply p-4 shadow-lg;\n}\n',
    'index.html': '<div class="mt-2 mt-4 card">x</div>\n',
  });
  const V3_WARNINGS = [
    "index.html:1:13: warning: 'mt-2' applies the same CSS properties as 'mt-4'. [tailwindcss cssConflict]",
    "index.html:1:18: warning: 'mt-4' applies the same CSS properties as 'mt-2'. [tailwindcss cssConflict]",
    '',
  ].join('\n');

  test('untrusted: Tailwind is left out, said; the HTML server answers, not whole (exit 3); the configuration never ran', async () => {
    const r = await untrusted.run(['diag', 'index.html'], { cwd: v3 });
    // The HTML server's answer without the checker the project configures is not whole: exit 3, saying so.
    expect([r.stdout, r.exit]).toEqual(['', 3]);
    expect(r.stderr).toContain(
      "left out tailwindcss-language-server (the project's tailwindcss and the plugins its configuration loads, and its tailwind.config.js)",
    );
    expect(r.stderr).toContain(
      'diagnostics are incomplete: tailwindcss-language-server left out the checks tailwind.config.js asks for (its configuration is code) (lspq trust lets it run)',
    );
    expect(existsSync(marker)).toBe(false);
  });

  test("trusted, cold and again: its conflicts; a hover on a class is the configuration's CSS", async () => {
    for (let round = 0; round < 2; round++) {
      const r = await lspq.run(['diag', 'index.html'], { cwd: v3 });
      expect([r.stdout, r.exit]).toEqual([V3_WARNINGS, 0]);
    }
    expect(existsSync(marker)).toBe(true);
    const h = await lspq.run(['hover', 'index.html:1:mt-4'], { cwd: v3 });
    expect([h.stdout, h.exit]).toEqual(['```css\n.mt-4 {\n  margin-top: 1rem /* 16px */;\n}\n```\n', 0]);
  });

  test('a class added on disk, then taken back', async () => {
    writeFileSync(join(v3, 'index.html'), '<div class="mt-2 card">x</div>\n');
    const clean = await lspq.run(['diag', 'index.html'], { cwd: v3 });
    expect([clean.stdout, clean.exit]).toEqual(['', 0]);
    writeFileSync(join(v3, 'index.html'), '<div class="mt-2 mt-4 card">x</div>\n');
    const back = await lspq.run(['diag', 'index.html'], { cwd: v3 });
    expect([back.stdout, back.exit]).toEqual([V3_WARNINGS, 0]);
  });
});

test('tailwindcss installed, but no stylesheet takes the file in: Tailwind says so, and the answer does not wait for it', async () => {
  // A long path: the server's log line names it over several lines.
  const bare = project('a-folder-whose-name-makes-the-path-long-enough-to-wrap', 4, {
    'package.json': '{ "name": "bare", "private": true }\n',
    'a.html': PAGE,
  });
  const r = await lspq.json<{ diagnostics: unknown[]; servers: { server: string }[]; incomplete: unknown[] }>(
    ['diag', 'a.html', '--timeout', '20'],
    { cwd: bare },
  );
  expect(r.servers.map((s) => s.server)).toEqual(['vscode-html-language-server', 'tailwindcss-language-server']);
  expect([r.diagnostics, r.incomplete]).toEqual([[], []]);
});
