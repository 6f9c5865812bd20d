/**
 * diag --all on TypeScript checks what the tsconfigs take in, as tsc does:
 * TanStack Query's query-core (its published sources) with tests beside
 * them in src/__tests__, which its tsconfig excludes (TanStack's own keeps
 * its tests out of the build so), extending a base config at the
 * workspace's root. `tsc -p` finds nothing; before, diag --all checked
 * every source git lists and reported each test's errors (exit 1). The
 * files left out are named, and a file under no tsconfig is checked and
 * said to be.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { git, Lspq, REPO, toolsPath } from '../helpers/lspq';
import { checkAnswer } from '../helpers/schema';
import { tanstackWorkspace, typescriptOnPath } from '../helpers/workspaces';

const lspq = new Lspq();
const tscDir = typescriptOnPath();
const PATH = `${tscDir}:${toolsPath()}`;
const root = tanstackWorkspace();
const core = join(root, 'packages', 'query-core');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const d of [root, tscDir]) rmSync(d, { recursive: true, force: true });
});

// Tests as TanStack writes them: vitest's globals, which this checkout does not install.
const TESTS: Record<string, string> = {
  'hydration.test.tsx':
    "import { describe, expect, it } from 'vitest'\n\ndescribe('dehydrate', () => {\n  it('works', () => expect(1).toBe(1))\n})\n",
  'queryClient.test.tsx': "import { vi } from 'vitest'\n\nexport const spy: number = vi.fn()\n",
  'utils.test.tsx': "import { test } from 'vitest'\n\ntest('hashKey', () => {})\n",
};
const COMPILER = {
  strict: true,
  target: 'ES2020',
  lib: ['ES2020', 'DOM'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  customConditions: ['@tanstack/custom-condition'],
  noEmit: true,
  skipLibCheck: true,
  types: [],
  jsx: 'preserve',
};
writeFileSync(join(root, 'tsconfig.base.json'), `${JSON.stringify({ compilerOptions: COMPILER }, null, 2)}\n`);
writeFileSync(
  join(core, 'tsconfig.json'),
  `${JSON.stringify({ extends: '../../tsconfig.base.json', include: ['src', 'env.d.ts'], exclude: ['src/__tests__'] }, null, 2)}\n`,
);
for (const [name, text] of Object.entries(TESTS)) {
  const path = join(core, 'src', '__tests__', name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}
// A script under no tsconfig: the server checks it with its defaults; tsc -p would not.
mkdirSync(join(root, 'scripts'), { recursive: true });
writeFileSync(join(root, 'scripts', 'release.ts'), "export const tag: string = 'v5';\n");
git(root, 'add', '-A');
git(root, 'commit', '-qm', 'tests and their tsconfig');

/** The sources under `dir` but its tests and declaration files, relative to the root. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((p) => !p.includes('__tests__'))
    .sort();
}

describe('query-core with its tests excluded by its tsconfig', () => {
  test('tsc -p finds nothing to report, and the tests do not compile on their own', () => {
    const tsc = join(REPO, 'node_modules', '.bin', 'tsc');
    const project = Bun.spawnSync([tsc, '-p', 'packages/query-core'], { cwd: root, env: { ...process.env, PATH } });
    expect([project.exitCode, project.stdout.toString()]).toEqual([0, '']);
    const alone = Bun.spawnSync(
      [tsc, '--noEmit', '--strict', '--jsx', 'preserve', 'packages/query-core/src/__tests__/utils.test.tsx'],
      {
        cwd: root,
        env: { ...process.env, PATH },
      },
    );
    expect(alone.stdout.toString()).toContain("error TS2307: Cannot find module 'vitest'");
  });

  test('diag --all: no errors (its 22 deprecation hints counted, not listed), the tests named as left out, the loose script as checked', async () => {
    const r = await lspq.run(['diag', '--all', '--server', 'typescript'], {
      cwd: root,
      env: { PATH },
    });
    const checked = [...sourcesUnder(join(root, 'packages')), 'scripts/release.ts'];
    expect(r).toEqual({
      stdout: '22 hints: --severity hint to show\n',
      stderr: [
        `lspq: 22 hints in ${checked.length} files`,
        'lspq: left out 3 files packages/query-core/tsconfig.json does not include, as tsc does: packages/query-core/src/__tests__/hydration.test.tsx, packages/query-core/src/__tests__/queryClient.test.tsx, packages/query-core/src/__tests__/utils.test.tsx',
        "lspq: checked 1 file no tsconfig includes, with the server's defaults (tsc -p would not): scripts/release.ts",
        '',
      ].join('\n'),
      exit: 0,
    });
  });

  test('--json: the files tsc checks, and the set apart', async () => {
    const doc = await lspq.json<Record<string, unknown>>(['diag', '--all', '--server', 'typescript'], {
      cwd: root,
      env: { PATH },
    });
    checkAnswer('diag', doc);
    expect([doc.files, doc.summary, doc.tsconfig]).toEqual([
      [...sourcesUnder(join(root, 'packages')), 'scripts/release.ts'],
      { error: 0, warning: 0, info: 0, hint: 22 },
      {
        leftOut: Object.keys(TESTS).map((name) => ({
          path: `packages/query-core/src/__tests__/${name}`,
          config: 'packages/query-core/tsconfig.json',
        })),
        loose: ['scripts/release.ts'],
      },
    ]);
  });

  test('a test named on the command line is still checked: its errors, exit 1', async () => {
    const r = await lspq.run(['diag', 'packages/query-core/src/__tests__/utils.test.tsx', '--server', 'typescript'], {
      cwd: root,
      env: { PATH },
    });
    expect([r.stdout, r.exit]).toEqual([
      "packages/query-core/src/__tests__/utils.test.tsx:1:22: error: Cannot find module 'vitest' or its corresponding type declarations. [ts 2307]\n",
      1,
    ]);
  });
});
