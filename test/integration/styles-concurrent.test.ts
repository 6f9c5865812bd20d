/**
 * One question's server settings are not another's. Both TypeScript
 * servers format and compute code actions with the indentation they were
 * last told, for every file: a tab-indented file's code action between two
 * formattings of a two-space file left that file written with tabs, and
 * two formattings at once crossed their styles. Each question that depends
 * on the style now holds the server alone while it is in force: tested in
 * turn, at once, and in one fmt of files of two styles.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lspq, scratchDir } from '../helpers/lspq';

const lspq = new Lspq();
const base = scratchDir('styles');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

const STYLES = { tab: '\t', two: '  ', four: '    ' } as const;
type Style = keyof typeof STYLES;

/** A function indented in the style, but for its last line, which fmt indents. */
const messy = (I: string) =>
  `import { alpha, beta } from "./lib";\n\nexport function run(x: number): number {\n${I}if (x > 0) {\n${I}${I}return x + alpha;\n${I}}\nreturn 0;\n}\n`;
const formatted = (I: string) =>
  `import { alpha, beta } from "./lib";\n\nexport function run(x: number): number {\n${I}if (x > 0) {\n${I}${I}return x + alpha;\n${I}}\n${I}return 0;\n}\n`;

function project(server: string): string {
  const dir = join(base, server);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    '{ "compilerOptions": { "strict": true, "module": "esnext", "moduleResolution": "bundler" } }\n',
  );
  writeFileSync(join(dir, 'lib.ts'), 'export const alpha = 1;\nexport const beta = 2;\n');
  return dir;
}

const fill = (dir: string) => {
  for (const [style, I] of Object.entries(STYLES)) writeFileSync(join(dir, `${style}.ts`), messy(I));
};
const read = (dir: string, style: Style) => readFileSync(join(dir, `${style}.ts`), 'utf8');

describe.each(['typescript', 'typescript-language-server'])('%s', (server) => {
  const dir = project(server);
  const on = ['--server', server];
  const fmt = (...styles: Style[]) =>
    lspq.run(['fmt', '--write', ...styles.map((s) => `${s}.ts`), ...on], { cwd: dir });
  /** Removes the unused import `beta`: computed in the file's style. */
  const action = (style: Style) =>
    lspq.run(['actions', `${style}.ts:1`, '--kind', 'source.removeUnusedImports', '--apply', '1', ...on], { cwd: dir });

  test('in turn: a two-space fmt, a tab-indented code action, a two-space fmt again', async () => {
    for (let round = 0; round < 3; round++) {
      fill(dir);
      expect((await fmt('two')).exit).toBe(0);
      expect(read(dir, 'two')).toBe(formatted('  '));
      expect((await action('tab')).exit).toBe(0);
      expect(read(dir, 'tab')).not.toContain('beta');
      writeFileSync(join(dir, 'two.ts'), messy('  '));
      expect((await fmt('two')).exit).toBe(0);
      expect(read(dir, 'two')).toBe(formatted('  '));
    }
  });

  test('at once: fmt of a tab-indented and of a two-space file beside a four-space code action', async () => {
    for (let round = 0; round < 3; round++) {
      fill(dir);
      const results = await Promise.all([fmt('tab'), fmt('two'), action('four')]);
      expect(results.map((r) => r.exit)).toEqual([0, 0, 0]);
      expect(read(dir, 'tab')).toBe(formatted('\t'));
      expect(read(dir, 'two')).toBe(formatted('  '));
      expect(read(dir, 'four')).toBe(messy('    ').replace('alpha, beta', 'alpha'));
    }
  });

  test('one fmt of files in three styles: each in its own', async () => {
    fill(dir);
    expect((await fmt('tab', 'two', 'four')).exit).toBe(0);
    expect([read(dir, 'tab'), read(dir, 'two'), read(dir, 'four')]).toEqual([
      formatted('\t'),
      formatted('  '),
      formatted('    '),
    ]);
  });
});
