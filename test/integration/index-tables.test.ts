/**
 * The first answer from an index lspq built is read from its table, made
 * when the index was made: `lspq index`, with `--out` too, makes it keyed
 * as the question that reads the index keys it (--index from anywhere,
 * the folder's own `.lspq`), says so, and a new daemon's first question
 * makes none. A new index replaces its file's earlier table.
 */
import { afterAll, expect, test } from 'bun:test';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const base = join(REPO, 'test', '.scratch', `index-tables-${process.pid}`);
const tables = join(lspq.dir, 'cache', 'lspq', 'tables');
const log = join(lspq.dir, 'run', 'daemon.log');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

interface Answer {
  source: string;
  locations: { path: string; line: number; column: number }[];
}
const places = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column}`);
const made = () => readFileSync(log, 'utf8').match(/made the table of /g)?.length ?? 0;
const tableFiles = () => readdirSync(tables).filter((f) => f.endsWith('.sqlite'));
const REFS = ['main.go:7:32'];

function checkout(name: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  cpSync(join(FIXTURES, 'go-shapes'), dir, { recursive: true });
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'shapes');
  return dir;
}

test('index --out: the table made with it, said, and found by a new daemon asking with --index', async () => {
  const dir = checkout('out');
  // Two folders below the project's parent: the root a question offers such an index is not the project's.
  const out = join(base, 'elsewhere', 'deeper', 'shapes.scip');
  const built = await lspq.run(['index', '--out', out], { cwd: dir });
  expect([built.exit, built.stdout]).toEqual([0, `${out}\n`]);
  expect(built.stderr).toMatch(
    /^lspq: indexed 5 files \(scip-go \d+\.\d s\), \d+ KB; its table made for the questions \(\d+\.\d s\)\n$/,
  );
  expect(tableFiles().length).toBe(1);
  for (let round = 0; round < 2; round++) {
    await lspq.run(['daemon', 'stop']);
    const before = made();
    for (let i = 0; i < 2; i++) {
      const a = await lspq.json<Answer>(['refs', 'geometry.go:17:TotalArea', '--index', out, '--index-only'], {
        cwd: dir,
      });
      expect([a.source, places(a)]).toEqual(['index', REFS]);
    }
    expect(made()).toBe(before);
  }
  expect(tableFiles().length).toBe(1);
  // Built again over a changed tree: one table, the new one, and it is the one read.
  appendFileSync(join(dir, 'main.go'), '\nvar again = TotalArea(nil, "m")\n');
  const first = tableFiles()[0];
  const rebuilt = await lspq.json<{ table: { file: string } }>(['index', '--out', out], { cwd: dir });
  expect(tableFiles()).toEqual([rebuilt.table.file.slice(tables.length + 1)]);
  expect(tableFiles()).not.toEqual([first]);
  await lspq.run(['daemon', 'stop']);
  const before = made();
  const a = await lspq.json<Answer>(['refs', 'geometry.go:17:TotalArea', '--index', out, '--index-only'], {
    cwd: dir,
  });
  expect([a.source, places(a)]).toEqual(['index', [...REFS, 'main.go:10:13']]);
  expect(made()).toBe(before);
});

test('index with its default out: a new daemon reads the table made with it', async () => {
  const dir = checkout('default');
  const built = await lspq.json<{ file: string; table: { file: string } }>(['index'], { cwd: dir });
  expect(built.file).toBe(join(dir, '.lspq', 'index.scip'));
  expect(tableFiles()).toContain(built.table.file.slice(tables.length + 1));
  await lspq.run(['daemon', 'stop']);
  const before = made();
  const a = await lspq.json<Answer>(['refs', 'geometry.go:17:TotalArea', '--index-only'], { cwd: dir });
  expect([a.source, places(a)]).toEqual(['index', REFS]);
  expect(made()).toBe(before);
});

test('the daemon started from a folder since deleted: an index and its table are still made', async () => {
  const own = new Lspq();
  try {
    const dir = checkout('gone-cwd');
    // The first command, and so the daemon, runs from a folder a user then deletes.
    const gone = join(base, 'gone');
    mkdirSync(gone, { recursive: true });
    expect((await own.run(['def', join(dir, 'main.go:7:TotalArea')], { cwd: gone })).exit).toBe(0);
    rmSync(gone, { recursive: true, force: true });
    const built = await own.run(['index'], { cwd: dir });
    expect([built.exit, built.stderr]).toEqual([0, expect.stringMatching(/; its table made for the questions /)]);
    const a = await own.json<Answer>(['refs', 'geometry.go:17:TotalArea', '--index-only'], { cwd: dir });
    expect([a.source, places(a)]).toEqual(['index', REFS]);
  } finally {
    expect(await own.stop()).toEqual([]);
  }
});
