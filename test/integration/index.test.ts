/**
 * Answers from a SCIP index: TypeScript (scip-typescript), Python
 * (scip-python), Rust (rust-analyzer scip) and Go (scip-go) fixtures
 * indexed with `lspq index`; def, refs and hover answered from the index
 * with no server started, equal to the live server's where both hold the
 * data; a file edited after indexing that names the symbol sends the
 * question to the live server (--index-only lists it as stale); a corrupt or
 * truncated index is exit 2 naming the file; --index-only without an index
 * is exit 3 with the `lspq index` hint.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const base = join(REPO, 'test', '.scratch', `index-${process.pid}`);
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

function copy(fixture: string): string {
  const dir = join(base, fixture);
  mkdirSync(dir, { recursive: true });
  cpSync(join(FIXTURES, fixture), dir, { recursive: true, filter: (p) => !p.includes('/target') });
  return dir;
}

interface Answer {
  server: string;
  source: string;
  locations: { path: string; line: number; column: number }[];
  stale?: string[];
}
const places = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column}`);
const servers = async () => (await lspq.json<{ servers: unknown[] }>(['daemon', 'status'])).servers;

/** Questions where the index and the live server hold the same answer. */
const LANGUAGES = [
  {
    fixture: 'ts-shapes',
    partial: false,
    indexer: 'scip-typescript',
    def: ['src/main.ts:7:totalArea', ['src/geometry.ts:13:17']],
    refs: 'src/shape.ts:2:Shape',
    hover: ['src/geometry.ts:13:totalArea', '```ts\nfunction totalArea(shapes: Shape[], unit: Unit): string\n```\n'],
    edit: 'src/geometry.ts',
  },
  {
    fixture: 'py-shapes',
    indexer: 'scip-python',
    // Its references leave out what pyright counts (imports, __all__, string annotations): the live server's.
    partial: true,
    def: ['main.py:7:total_area', ['shapes/geometry.py:15:5']],
    refs: 'shapes/shape.py:7:Shape',
    hover: [
      'main.py:7:total_area',
      '```python\ndef total_area(\n  shapes: list[Shape],\n  unit: Unit\n) -> str:\n```\n',
    ],
    edit: 'shapes/geometry.py',
  },
  {
    fixture: 'rust-shapes',
    partial: false,
    indexer: 'rust-analyzer',
    def: ['src/main.rs:13:total_area', ['src/geometry.rs:15:8']],
    refs: 'src/shape.rs:2:Shape',
    hover: ['src/shape.rs:2:Shape', '```rust\npub trait Shape\n```\n\nAnything with an area.\n'],
    edit: 'src/geometry.rs',
  },
  {
    fixture: 'go-shapes',
    partial: false,
    indexer: 'scip-go',
    def: ['main.go:7:TotalArea', ['geometry.go:17:6']],
    refs: 'shape.go:4:Shape',
    hover: ['main.go:7:TotalArea', '```go\nfunc TotalArea(shapes []Shape, unit Unit) string\n```\n'],
    edit: 'geometry.go',
  },
] as const;

describe.each(LANGUAGES)('$fixture indexed by $indexer', (lang) => {
  const dir = copy(lang.fixture);
  const run = (args: string[]) => lspq.run(args, { cwd: dir });
  const json = (args: string[]) => lspq.json<Answer>(args, { cwd: dir });

  test('lspq index writes the index and its manifest', async () => {
    await lspq.run(['daemon', 'stop']);
    const r = await lspq.json<{ file: string; documents: number; indexers: { name: string }[] }>(
      ['index', '--root', '.'],
      { cwd: dir },
    );
    expect(r.file).toBe(join(dir, '.lspq', 'index.scip'));
    expect(r.indexers.map((i) => i.name)).toEqual([lang.indexer]);
    expect(r.documents).toBeGreaterThan(3);
    const manifest = JSON.parse(readFileSync(join(dir, '.lspq', 'index.json'), 'utf8'));
    expect(Object.keys(manifest.files)).toContain(lang.edit);
    expect(readFileSync(join(dir, '.lspq', '.gitignore'), 'utf8')).toBe('*\n');
  });

  test('def and refs from the index, no server started; cold and asked again; the same as the live server', async () => {
    const [target, expected] = lang.def;
    for (let i = 0; i < 2; i++) {
      const fromIndex = await json(['def', target]);
      expect([fromIndex.source, fromIndex.server]).toEqual(['index', lang.indexer]);
      expect(places(fromIndex)).toEqual([...expected]);
    }
    // An indexer whose references are known partial: refs is the live server's (checked below).
    const refs = await json(['refs', lang.refs, ...(lang.partial ? ['--index-only'] : [])]);
    expect(refs.source).toBe('index');
    expect(refs.stale).toEqual([]);
    expect(await servers()).toEqual([]);
    if (lang.partial) expect((await json(['refs', lang.refs])).source).toBe('server');
    const live = await json(['refs', lang.refs, '--no-index']);
    expect(live.source).toBe('server');
    expect(places(refs)).toEqual(places(live));
    expect(places(await json(['def', target, '--no-index']))).toEqual([...expected]);
  });

  test('symbols -w from the index: the declarations the live server lists', async () => {
    type Found = { symbols: { name: string; path: string; line: number; column: number }[]; source: string };
    // The project's own declarations whose name holds the query: gopls also lists the standard library's
    // (absolute paths) and fuzzy matches (Circle.Radius), and names them qualified (Circle.Area).
    const declared = (r: Found) =>
      r.symbols
        .filter((x) => !x.path.startsWith('/') && x.name.split('.').pop()!.toLowerCase().includes('area'))
        .map((x) => `${x.path}:${x.line}:${x.column}`)
        .sort();
    const fromIndex = await lspq.json<Found>(['symbols', '-w', 'area', '--root', '.'], { cwd: dir });
    expect(fromIndex.source).toBe('index');
    const live = await lspq.json<Found>(['symbols', '-w', 'area', '--root', '.', '--no-index'], { cwd: dir });
    expect(declared(fromIndex)).toEqual(declared(live));
  });

  test('hover from the index: its signature and documentation', async () => {
    const [target, contents] = lang.hover;
    const r = await run(['hover', target, '--index-only']);
    expect(r).toEqual({ exit: 0, stdout: contents, stderr: '' });
  });

  test('a file edited after indexing that names the symbol: the live server answers; --index-only lists it as stale', async () => {
    const before = places(await json(['refs', lang.refs]));
    appendFileSync(join(dir, lang.edit), '\n');
    const [target] = lang.def;
    const edited = `${lang.edit}:${Number(lang.def[1][0].split(':')[1])}:${target.split(':')[2]}`;
    expect((await json(['def', edited])).source).toBe('server');
    const live = await json(['refs', lang.refs]);
    expect([live.source, places(live)]).toEqual(['server', before]);
    const only = await lspq.run(['refs', lang.refs, '--index-only'], { cwd: dir });
    // Asked alone, of an indexer known to leave places out or with a file changed since: what it may lack is said, exit 3.
    expect(only.exit).toBe(3);
    if (lang.partial)
      expect(only.stderr).toContain(
        "lspq: the answer may be incomplete: scip-python's index leaves out import statements, __all__ entries and string annotations, which pyright counts as references; drop --index-only to ask the live server",
      );
    else
      expect(only.stderr).toBe(
        `lspq: the answer may be incomplete: answered from the SCIP index, and 1 file(s) changed since it was built may hold more: ${lang.edit}; run 'lspq index' again, or drop --index-only\n`,
      );
    const onlyJson = await json(['refs', lang.refs, '--index-only']);
    expect([onlyJson.source, onlyJson.stale]).toEqual(['index', [lang.edit]]);
    // What the index says of the edited file is left out: the rest is the live answer without it.
    expect(places(onlyJson)).toEqual(before.filter((p) => !p.startsWith(`${lang.edit}:`)));
    expect(await run(['def', edited, '--index-only'])).toEqual({
      exit: 3,
      stdout: '',
      stderr: `lspq: ${lang.edit} changed since the index was built; run 'lspq index' again, or drop --index-only\n`,
    });
  });
});

describe('the name search of an index', () => {
  // (The table's first row, which the search skipped, is the file's own symbol here: test/unit/index-search.test.ts asks it.)
  const dir = join(base, 'names');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "names", "private": true, "type": "module" }\n');
  writeFileSync(
    join(dir, 'tsconfig.json'),
    '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n',
  );
  writeFileSync(
    join(dir, 'src/a.ts'),
    'export function Ärger(): number {\n  return 1;\n}\nexport const calm = Ärger();\n',
  );
  type Found = { symbols: { name: string; path: string; line: number; column: number }[]; source: string };
  const found = (r: Found) => [r.source, ...r.symbols.map((x) => `${x.name} ${x.path}:${x.line}:${x.column}`)];

  test('a name that is not ASCII, asked in another case: found, as the live server finds it', async () => {
    expect((await lspq.run(['index', '--root', '.'], { cwd: dir })).exit).toBe(0);
    for (const query of ['ärger', 'ÄRGER', 'Ärger']) {
      const fromIndex = await lspq.json<Found>(['symbols', '-w', query, '--index-only'], { cwd: dir });
      expect(found(fromIndex)).toEqual(['index', 'Ärger src/a.ts:1:17']);
    }
    const live = await lspq.json<Found>(['symbols', '-w', 'ärger', '--no-index'], { cwd: dir });
    expect(found(live)).toEqual(['server', 'Ärger src/a.ts:1:17']);
    const calm = await lspq.json<Found>(['symbols', '-w', 'CALM', '--index-only'], { cwd: dir });
    expect(found(calm)).toEqual(['index', 'calm src/a.ts:4:14']);
  });
});

describe('broken and missing indexes', () => {
  const dir = join(base, 'ts-shapes');

  test('a truncated index is exit 2 naming the file', async () => {
    const index = join(dir, '.lspq', 'index.scip');
    const bytes = readFileSync(index);
    writeFileSync(index, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const r = await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: dir });
    expect(r.exit).toBe(2);
    expect(r.stderr).toStartWith(`lspq: ${index} is not a SCIP index (`);
    expect(r.stderr).toEndWith("); build it again with 'lspq index'\n");
    writeFileSync(index, 'not protobuf at all, just text\n');
    expect((await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: dir })).exit).toBe(2);
    // --no-index never reads it.
    expect((await lspq.run(['def', 'src/main.ts:7:totalArea', '--no-index'], { cwd: dir })).exit).toBe(0);
  });

  test('--index-only with no index: exit 3 and the lspq index hint', async () => {
    const bare = join(base, 'go-bare');
    cpSync(join(FIXTURES, 'go-shapes'), bare, { recursive: true });
    const r = await lspq.run(['def', 'main.go:7:TotalArea', '--index-only'], { cwd: bare });
    expect(r.exit).toBe(3);
    expect(r.stderr).toContain("build one with 'lspq index'");
  });

  test('asked with no index, then indexed: the next question answers from it at once; one put back by another program, at once with --index-only', async () => {
    const fresh = join(base, 'go-fresh');
    cpSync(join(FIXTURES, 'go-shapes'), fresh, { recursive: true });
    const ask = (flags: string[]) => lspq.json<Answer>(['def', 'main.go:7:TotalArea', ...flags], { cwd: fresh });
    expect((await ask([])).source).toBe('server');
    // Written through the daemon: what it remembered of the folder (no index there) is forgotten at once.
    expect((await lspq.run(['index', '--root', '.'], { cwd: fresh })).exit).toBe(0);
    const fromIndex = await ask([]);
    expect([fromIndex.source, ...places(fromIndex)]).toEqual(['index', 'geometry.go:17:6']);
    // Taken away and put back by another program: --index-only looks again, whatever the daemon remembers.
    renameSync(join(fresh, '.lspq'), join(fresh, '.lspq-away'));
    expect((await ask([])).source).toBe('server');
    renameSync(join(fresh, '.lspq-away'), join(fresh, '.lspq'));
    const only = await ask(['--index-only']);
    expect([only.source, ...places(only)]).toEqual(['index', 'geometry.go:17:6']);
  });

  test('--index FILE that does not exist: exit 2', async () => {
    const r = await lspq.run(['def', 'src/main.ts:7:totalArea', '--index', 'nowhere.scip'], { cwd: dir });
    expect(r.exit).toBe(2);
    expect(r.stderr).toContain("build it with 'lspq index' or drop --index");
  });
});
