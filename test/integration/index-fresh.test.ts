/**
 * Index answers never hide what the index cannot know: a file added,
 * changed or deleted since `lspq index` is asked of the live server where
 * it names the symbol, or listed as stale with --index-only; --index-only
 * never starts a server (exit 3 where the index cannot answer); --server
 * means the same with or without an index; `new Box()` is a reference of
 * Box in both; a monorepo of three languages gets each indexer.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const base = join(REPO, 'test', '.scratch', `index-fresh-${process.pid}`);
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

interface Answer {
  source: string;
  locations: { path: string; line: number; column: number }[];
  stale?: string[];
}
const places = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column}`);
const servers = async () => (await lspq.json<{ servers: unknown[] }>(['daemon', 'status'])).servers;

/** A fixture copied into a git checkout of its own, indexed. */
async function indexed(fixture: string, name = fixture): Promise<string> {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(FIXTURES, fixture), dir, { recursive: true, filter: (p) => !p.includes('/target') });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'fixture');
  const r = await lspq.run(['index'], { cwd: dir });
  expect(r.exit).toBe(0);
  return dir;
}

describe.each([
  {
    fixture: 'ts-shapes',
    refs: 'src/geometry.ts:13:totalArea',
    caller: ['src/more.ts', "import { totalArea } from './geometry';\n\nexport const more = totalArea([], 'm');\n"],
    other: ['src/other.ts', 'export const unrelated = 1;\n'],
    added: 'src/more.ts:3:21',
    shared: 'src/shape.ts:2:Shape',
    holder: 'src/main.ts',
  },
  {
    fixture: 'go-shapes',
    refs: 'geometry.go:17:TotalArea',
    caller: ['more.go', 'package main\n\nvar more = TotalArea(nil, "m")\n'],
    other: ['other.go', 'package main\n\nvar unrelated = 1\n'],
    added: 'more.go:3:12',
    shared: 'shape.go:4:Shape',
    holder: 'main.go',
  },
])('$fixture: files added, changed and deleted since the index', (c) => {
  let dir = '';
  const json = (args: string[]) => lspq.json<Answer>(args, { cwd: dir });

  test('a new file that calls it: the live server answers, with it; --index-only names it as stale', async () => {
    dir = await indexed(c.fixture);
    const fromIndex = await json(['refs', c.refs]);
    expect([fromIndex.source, fromIndex.stale]).toEqual(['index', []]);
    writeFileSync(join(dir, c.caller[0]!), c.caller[1]!);
    const live = await json(['refs', c.refs]);
    expect(live.source).toBe('server');
    // (Both TypeScript answers also hold the new file's import specifier.)
    expect(places(live)).toEqual(expect.arrayContaining([...places(fromIndex), c.added]));
    const only = await lspq.run(['refs', c.refs, '--index-only'], { cwd: dir });
    // What the new file holds is not in the index: not the whole answer.
    expect([only.exit, only.stderr]).toEqual([
      3,
      `lspq: the answer may be incomplete: answered from the SCIP index, and 1 file(s) changed since it was built may hold more: ${c.caller[0]}; run 'lspq index' again, or drop --index-only\n`,
    ]);
    expect((await json(['refs', c.refs, '--index-only'])).stale).toEqual([c.caller[0]!]);
    unlinkSync(join(dir, c.caller[0]!));
    expect((await json(['refs', c.refs])).source).toBe('index');
  });

  test('a new file that does not name it: still the index, with nothing stale', async () => {
    writeFileSync(join(dir, c.other[0]!), c.other[1]!);
    const r = await json(['refs', c.refs]);
    expect([r.source, r.stale]).toEqual(['index', []]);
    unlinkSync(join(dir, c.other[0]!));
  });

  test('a deleted file: its places are left out, as the live server leaves them', async () => {
    const before = await json(['refs', c.shared]);
    expect(places(before).some((p) => p.startsWith(`${c.holder}:`))).toBe(true);
    unlinkSync(join(dir, c.holder));
    const after = await json(['refs', c.shared]);
    expect(after.source).toBe('index');
    expect(places(after)).toEqual(places(before).filter((p) => !p.startsWith(`${c.holder}:`)));
    expect(places(await json(['refs', c.shared, '--no-index']))).toEqual(places(after));
    git(dir, 'checkout', '--', c.holder);
  });
});

describe('--server and --index-only mean the same with an index as without', () => {
  let dir = '';
  test('--server NAME asks that live server; an unknown one is exit 2 either way', async () => {
    dir = await indexed('go-shapes', 'go-server');
    expect((await lspq.json<Answer>(['def', 'main.go:7:TotalArea'], { cwd: dir })).source).toBe('index');
    expect((await lspq.json<Answer>(['def', 'main.go:7:TotalArea', '--server', 'gopls'], { cwd: dir })).source).toBe(
      'server',
    );
    const unknown = await lspq.run(['def', 'main.go:7:TotalArea', '--server', 'nosuch'], { cwd: dir });
    const unknownLive = await lspq.run(['def', 'main.go:7:TotalArea', '--server', 'nosuch', '--no-index'], {
      cwd: dir,
    });
    expect(unknown.exit).toBe(2);
    expect(unknown).toEqual(unknownLive);
    expect(await lspq.run(['def', 'main.go:7:TotalArea', '--server', 'gopls', '--index-only'], { cwd: dir })).toEqual({
      exit: 2,
      stdout: '',
      stderr: 'lspq: --server asks the live server gopls; --index-only never starts one: give one of them\n',
    });
  });

  test('--index-only never starts a server: what the index cannot answer is exit 3', async () => {
    await lspq.run(['daemon', 'stop']);
    const only = (args: string[]) => lspq.run([...args, '--index-only'], { cwd: dir });
    expect(await only(['def', 'main.go:7:Println'])).toEqual({
      exit: 3,
      stdout: '',
      stderr:
        'lspq: the index has no definitions of Println (defined outside the project, or not recorded by scip-go); drop --index-only to ask the live server\n',
    });
    expect((await only(['def', 'main.go:7:TotalArea', '--body'])).stderr).toBe(
      'lspq: --body reads each declaration from a live server; drop --index-only\n',
    );
    expect((await only(['symbols', 'main.go'])).exit).toBe(3);
    expect(await only(['hover', 'main.go:3:1'])).toEqual({
      exit: 3,
      stdout: '',
      stderr: 'lspq: the index holds no symbol at main.go:3:1; drop --index-only to ask the live server\n',
    });
    // A target that is wrong is the same one-line error as from a live server.
    expect((await only(['def', 'main.go:99:TotalArea'])).stderr).toBe(
      'lspq: line 99 is outside main.go, which has 8 lines\n',
    );
    expect((await only(['refs', 'main.go:7:TotalArea'])).exit).toBe(0);
    expect(await servers()).toEqual([]);
  });
});

test('`new Box()` is a reference of Box from the index as from the server', async () => {
  const dir = join(base, 'ts-new');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    '{"compilerOptions":{"strict":true,"target":"es2022"},"include":["src"]}\n',
  );
  writeFileSync(join(dir, 'package.json'), '{"name":"ts-new"}\n');
  writeFileSync(join(dir, 'src', 'box.ts'), 'export class Box {\n  constructor(readonly size: number) {}\n}\n');
  writeFileSync(
    join(dir, 'src', 'use.ts'),
    "import { Box } from './box';\n\nexport const small = new Box(1);\nexport const kinds: Box[] = [small];\n",
  );
  git(dir, 'init', '-q');
  expect((await lspq.run(['index'], { cwd: dir })).exit).toBe(0);
  const fromIndex = await lspq.json<Answer>(['refs', 'src/box.ts:1:Box'], { cwd: dir });
  const live = await lspq.json<Answer>(['refs', 'src/box.ts:1:Box', '--no-index'], { cwd: dir });
  expect([fromIndex.source, places(fromIndex)]).toEqual([
    'index',
    ['src/use.ts:1:10', 'src/use.ts:3:26', 'src/use.ts:4:21'],
  ]);
  expect(places(live)).toEqual(places(fromIndex));
});

test('a monorepo of three languages: each indexer over its project, each language answered from the index', async () => {
  const dir = join(base, 'poly');
  mkdirSync(dir, { recursive: true });
  cpSync(join(FIXTURES, 'ts-shapes'), dir, { recursive: true });
  cpSync(join(FIXTURES, 'go-shapes'), join(dir, 'services', 'api'), { recursive: true });
  cpSync(join(FIXTURES, 'py-shapes'), join(dir, 'tools', 'py'), { recursive: true });
  git(dir, 'init', '-q');
  const r = await lspq.json<{ indexers: { name: string }[]; documents: number }>(['index'], { cwd: dir });
  expect(r.indexers.map((i) => i.name)).toEqual(['scip-typescript', 'scip-python', 'scip-go']);
  for (const [target, expected] of [
    ['src/main.ts:7:totalArea', 'src/geometry.ts:13:17'],
    ['services/api/main.go:7:TotalArea', 'services/api/geometry.go:17:6'],
    ['tools/py/main.py:7:total_area', 'tools/py/shapes/geometry.py:15:5'],
  ] as const) {
    const a = await lspq.json<Answer>(['def', target, '--index-only'], { cwd: dir });
    expect([a.source, places(a)]).toEqual(['index', [expected]]);
  }
});

describe('an import that renames the symbol (scip-typescript records its uses as another symbol)', () => {
  // The refs of lspq's own joinPath from scip-typescript's index lacked socket.ts's uses of `join`, exit 0
  // (the differential harness found it); the live server follows the alias.
  const FILE = [
    'src/aliased.ts',
    "import { totalArea as total } from './geometry';\n\nexport const sum = total([], 'm');\n",
  ];
  test('the live server answers, with the uses through the alias; --index-only says it may lack them (exit 3)', async () => {
    const dir = join(base, 'aliased');
    mkdirSync(dir, { recursive: true });
    cpSync(join(FIXTURES, 'ts-shapes'), dir, { recursive: true });
    writeFileSync(join(dir, FILE[0]!), FILE[1]!);
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'aliased');
    expect((await lspq.run(['index'], { cwd: dir })).exit).toBe(0);
    for (let round = 0; round < 2; round++) {
      const live = await lspq.json<Answer>(['refs', 'src/geometry.ts:13:totalArea'], { cwd: dir });
      expect([round, live.source, places(live).filter((p) => p.startsWith('src/aliased.ts'))]).toEqual([
        round,
        'server',
        ['src/aliased.ts:1:10', 'src/aliased.ts:1:23', 'src/aliased.ts:3:20'],
      ]);
      const only = await lspq.run(['refs', 'src/geometry.ts:13:totalArea', '--index-only'], { cwd: dir });
      expect([round, only.exit, only.stderr]).toEqual([
        round,
        3,
        "lspq: the answer may be incomplete: scip-typescript's index leaves out the uses through an import that renames it (src/aliased.ts:1); drop --index-only to ask the live server\n",
      ]);
    }
  });
});
