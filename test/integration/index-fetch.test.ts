/**
 * An index built in CI, fetched here: `lspq index` in one clone writes
 * COMMIT.scip into a folder a real HTTP server (Python's http.server)
 * serves; in another clone `lspq index --fetch URL` (or LSPQ_INDEX_URL)
 * takes it for HEAD, else for HEAD's merge base with the default branch,
 * into a cache keyed by commit, and questions answer from it, files
 * changed since that commit going to the live server. A missing artifact
 * is one clear line: exit 3 for `lspq index --fetch`, the live server's
 * answer for a question.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const base = join(REPO, 'test', '.scratch', `index-fetch-${process.pid}`);
const served = join(base, 'artifacts');
const ci = join(base, 'ci');
const here = join(base, 'here');
let http: Bun.Subprocess<'ignore', 'pipe', 'ignore'> | undefined;
let url = '';
let commit = '';

interface Answer {
  source: string;
  locations: { path: string; line: number; column: number }[];
  stale?: string[];
}
const places = (a: Answer) => a.locations.map((l) => `${l.path}:${l.line}:${l.column}`);

beforeAll(async () => {
  mkdirSync(served, { recursive: true });
  cpSync(join(FIXTURES, 'ts-shapes'), ci, { recursive: true });
  git(ci, 'init', '-q', '-b', 'main');
  git(ci, 'add', '-A');
  git(ci, 'commit', '-qm', 'shapes');
  commit = git(ci, 'rev-parse', 'HEAD').trim();
  // What CI does: build the index of the commit and publish it under the commit's name.
  const built = await lspq.run(['index', '--out', join(served, `${commit}.scip`)], { cwd: ci });
  expect(built.exit).toBe(0);
  git(base, 'clone', '-q', ci, here);
  http = Bun.spawn(['python3', '-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', served], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'ignore',
  });
  const reader = http.stdout.getReader();
  let text = '';
  while (!/port (\d+)/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  reader.releaseLock();
  url = `http://127.0.0.1:${/port (\d+)/.exec(text)![1]}/{commit}.scip`;
});

afterAll(async () => {
  http?.kill();
  await http?.exited;
  expect(await lspq.stop()).toEqual([]);
  rmSync(base, { recursive: true, force: true });
});

describe('lspq index --fetch', () => {
  test('takes the index for HEAD into the cache; questions answer from it, paths in this clone', async () => {
    // Asked first with no index here (the server warm, then the daemon remembers the folder has none): the
    // fetch makes it forget that at once.
    await lspq.run(['def', 'src/main.ts:7:totalArea', '--no-index'], { cwd: here });
    expect((await lspq.json<Answer>(['def', 'src/main.ts:7:totalArea'], { cwd: here })).source).toBe('server');
    const r = await lspq.json<{ file: string; commit: string; url: string; table: { file: string } }>(
      ['index', '--fetch', url],
      { cwd: here },
    );
    expect(r.commit).toBe(commit);
    expect(r.file).toBe(join(lspq.dir, 'cache', 'lspq', 'indexes', `${commit}.scip`));
    expect(r.url).toBe(url.replace('{commit}', commit));
    // Its table made with it: a new daemon's first question reads it, and makes none.
    expect(existsSync(r.table.file)).toBe(true);
    await lspq.run(['daemon', 'stop']);
    const made = () => readFileSync(join(lspq.dir, 'run', 'daemon.log'), 'utf8').match(/made the table of /g)?.length;
    const before = made();
    const def = await lspq.json<Answer>(['def', 'src/main.ts:7:totalArea'], { cwd: here });
    expect(made()).toBe(before);
    expect([def.source, places(def)]).toEqual(['index', ['src/geometry.ts:13:17']]);
    const refs = await lspq.json<Answer>(['refs', 'src/shape.ts:2:Shape'], { cwd: here });
    expect(refs.source).toBe('index');
    expect(places(refs)).toEqual(
      places(await lspq.json<Answer>(['refs', 'src/shape.ts:2:Shape', '--no-index'], { cwd: here })),
    );
    expect(existsSync(join(here, '.lspq', 'index.scip'))).toBe(false);
  });

  test('a file changed since that commit goes to the live server', async () => {
    appendFileSync(join(here, 'src', 'geometry.ts'), '\n');
    expect((await lspq.json<Answer>(['def', 'src/geometry.ts:13:totalArea'], { cwd: here })).source).toBe('server');
    const only = await lspq.json<Answer>(['refs', 'src/shape.ts:2:Shape', '--index-only'], { cwd: here });
    expect([only.source, only.stale]).toEqual(['index', ['src/geometry.ts']]);
    git(here, 'checkout', '--', 'src/geometry.ts');
  });

  test('a commit CI never built: the index of its merge base with the default branch', async () => {
    git(here, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(here, 'notes.txt'), 'a commit of its own\n');
    git(here, 'add', 'notes.txt');
    git(here, 'commit', '-qm', 'feature work');
    rmSync(join(here, '.lspq'), { recursive: true, force: true });
    const r = await lspq.json<{ commit: string }>(['index', '--fetch', url], { cwd: here });
    expect(r.commit).toBe(commit);
    expect((await lspq.json<Answer>(['def', 'src/main.ts:7:totalArea'], { cwd: here })).source).toBe('index');
  });

  test('no artifact for the commit: one line, exit 3; a URL that is no index: exit 2', async () => {
    const missing = url.replace('{commit}.scip', 'nothing-{commit}.scip');
    // A cache of its own: the one above already holds this commit's index.
    const env = { XDG_CACHE_HOME: join(base, 'cache-missing') };
    const r = await lspq.run(['index', '--fetch', missing], { cwd: here, env });
    expect(r.exit).toBe(3);
    expect(r.stderr).toStartWith(`lspq: no index at ${missing} for HEAD `);
    expect(r.stderr.split('\n').length).toBe(2);
    writeFileSync(join(served, 'page.scip'), '<html>not an index</html>\n');
    const page = await lspq.run(['index', '--fetch', url.replace('{commit}.scip', 'page.scip')], { cwd: here, env });
    expect(page.exit).toBe(2);
    expect(page.stderr).toStartWith(`lspq: ${url.replace('{commit}.scip', 'page.scip')} is not a SCIP index (`);
  });
});

describe('LSPQ_INDEX_URL', () => {
  test('a question fetches the index itself; a missing artifact is one warning line and the live answer', async () => {
    const fresh = join(base, 'fresh');
    git(base, 'clone', '-q', ci, fresh);
    const env = { LSPQ_INDEX_URL: url, XDG_CACHE_HOME: join(base, 'cache-auto') };
    const def = await lspq.json<Answer>(['def', 'src/main.ts:7:totalArea'], { cwd: fresh, env });
    expect([def.source, places(def)]).toEqual(['index', ['src/geometry.ts:13:17']]);
    expect(existsSync(join(base, 'cache-auto', 'lspq', 'indexes', `${commit}.scip`))).toBe(true);
    const other = join(base, 'other');
    git(base, 'clone', '-q', ci, other);
    const missing = {
      LSPQ_INDEX_URL: url.replace('{commit}.scip', 'nothing-{commit}.scip'),
      XDG_CACHE_HOME: join(base, 'cache-none'),
    };
    const r = await lspq.run(['def', 'src/main.ts:7:totalArea'], { cwd: other, env: missing });
    expect(r.exit).toBe(0);
    expect(r.stdout).toStartWith('src/geometry.ts:13:17:');
    expect(r.stderr).toBe(
      `lspq: warning: no index at ${missing.LSPQ_INDEX_URL} for ${commit.slice(0, 12)}; the live servers answer\n`,
    );
  });
});
