/**
 * Trust under concurrency, tried as a careless script would: another
 * program appends to a file while lspq edits it (rename, fmt --write,
 * actions --apply), five times over, and every appended line must survive;
 * diag --staged runs beside other questions on the same file, and none of
 * them may ever see the staged text; two applies at once each write their
 * own edit.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, fakeProject, git, Lspq, type RunResult } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const ROUNDS = 5;
const APPENDS = 100;

/**
 * Another program: appends `line(i)` to `file` for i = 1..APPENDS, every
 * 10-49 ms, each time opening the file anew (as `echo >>` does).
 */
function appender(file: string, line: (i: number) => string): Promise<number> {
  const script = `for i in $(seq 1 ${APPENDS}); do printf '%s\\n' "\${LINE//@/$i}" >> "$FILE"; sleep 0.0$((RANDOM % 40 + 10)); done`;
  const proc = Bun.spawn(['bash', '-c', script], {
    env: { ...process.env, FILE: file, LINE: line(-1).replaceAll('-1', '@') },
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'inherit',
  });
  return proc.exited;
}

/** Runs `edit` over and over until the appender is done; every run must succeed or be refused as stale. */
async function editWhileAppending(
  file: string,
  line: (i: number) => string,
  edit: (n: number) => Promise<RunResult>,
): Promise<{ applied: number; refused: number }> {
  let done = false;
  const appending = appender(file, line).then(() => {
    done = true;
  });
  let applied = 0;
  let refused = 0;
  // On a loaded machine every edit of a round may meet an append, and be refused rightly; once the appender is done
  // nothing races, so an edit then must land (one more try, in case the last append came just before it read).
  let afterwards = 0;
  while (!done || (applied === 0 && afterwards++ < 2)) {
    const r = await edit(applied);
    if (r.exit === 0) applied++;
    else {
      // A write that raced the edit: exit 3, the file named, and nothing of lspq's left behind.
      expect({ exit: r.exit, stderr: r.stderr }).toEqual({
        exit: 3,
        stderr: expect.stringContaining(file.split('/').pop()!) as unknown as string,
      });
      refused++;
    }
  }
  await appending;
  return { applied, refused };
}

function missing(has: (i: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 1; i <= APPENDS; i++) if (!has(i)) out.push(i);
  return out;
}

describe('no write by another program is lost to an edit', () => {
  test(`rename back and forth in Go while a line is appended every 10-50 ms, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = copyFixture('go-shapes');
      scratch.push(dir);
      const file = join(dir, 'geometry.go');
      const names = ['TotalArea', 'SumOfAreas'];
      // Each round is a new root, so a new gopls: it loads before the race starts. A cold load takes seconds on a
      // loaded machine, long enough for every rename of the round to meet an append (refused, rightly) and none to land.
      expect((await lspq.run(['hover', 'geometry.go:17:TotalArea'], { cwd: dir })).exit).toBe(0);
      const { applied } = await editWhileAppending(
        file,
        (i) => `// appended ${i}`,
        (n) => lspq.run(['rename', `geometry.go:17:${names[n % 2]}`, names[(n + 1) % 2]!], { cwd: dir }),
      );
      const text = readFileSync(file, 'utf8');
      expect(missing((i) => text.includes(`// appended ${i}\n`))).toEqual([]);
      // Each line once, and nothing of lspq's left beside the file.
      expect(text.split('\n').filter((l) => l.startsWith('// appended')).length).toBe(APPENDS);
      expect(readdirSync(dir).filter((f) => f.includes('.lspq-'))).toEqual([]);
      expect(applied).toBeGreaterThan(0);
      // Every applied rename reached both files: the name in use agrees.
      const name = names[applied % 2]!;
      expect(text).toContain(`func ${name}(`);
      expect(readFileSync(join(dir, 'main.go'), 'utf8')).toContain(`${name}(`);
    }
  }, 240_000);

  test(`fmt --write in Go while unformatted lines are appended, ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = copyFixture('go-shapes');
      scratch.push(dir);
      const file = join(dir, 'geometry.go');
      expect((await lspq.run(['hover', 'geometry.go:17:TotalArea'], { cwd: dir })).exit).toBe(0);
      const { applied } = await editWhileAppending(
        file,
        (i) => `var   appended${i}   =   ${i}`,
        () => lspq.run(['fmt', 'geometry.go', '--write'], { cwd: dir }),
      );
      const text = readFileSync(file, 'utf8');
      expect(missing((i) => new RegExp(`^var\\s+appended${i}\\s+=\\s+${i}$`, 'm').test(text))).toEqual([]);
      expect(applied).toBeGreaterThan(0);
    }
  }, 240_000);

  test(`actions --apply (a command whose edit comes back as workspace/applyEdit), ${ROUNDS} times`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dir = fakeProject('race', 'grows-on-fix', { 'a.fake': 'hello a\n' });
      scratch.push(dir);
      const file = join(dir, 'a.fake');
      const { applied } = await editWhileAppending(
        file,
        (i) => `line ${i}`,
        () => lspq.run(['actions', 'a.fake:1', '--apply', '1'], { cwd: dir }),
      );
      const text = readFileSync(file, 'utf8');
      expect(missing((i) => text.includes(`line ${i}\n`))).toEqual([]);
      // Each applied edit added exactly one line at the top.
      expect(text.split('\n').filter((l) => l === 'fixed').length).toBe(applied);
    }
  }, 240_000);
});

describe('one question never sees another question’s unsaved text', () => {
  test('200 rounds of diag --staged beside def, symbols and diag on the same Go file: no answer holds the staged text', async () => {
    const dir = copyFixture('go-shapes');
    scratch.push(dir);
    const file = join(dir, 'twice.go');
    git(dir, 'init', '-q');
    writeFileSync(file, 'package main\n\nfunc stagedOnly(x int) int { return 2 * x }\n');
    git(dir, 'add', 'twice.go');
    writeFileSync(file, 'package main\n\nfunc twice(x int) int { return 2 * x }\n');
    const run = (args: string[]) => lspq.run(args, { cwd: dir });
    const expected = {
      def: { exit: 0, stdout: 'twice.go:3:6: func twice(x int) int { return 2 * x }\n', stderr: '' },
      symbols: { exit: 0, stdout: 'twice.go:3:6: function twice func(x int) int\n', stderr: '' },
    };
    expect(await run(['def', 'twice.go:3:twice'])).toEqual(expected.def);
    expect(await run(['symbols', 'twice.go'])).toEqual(expected.symbols);
    for (let round = 0; round < 200; round++) {
      const [staged, def, symbols, diag] = await Promise.all([
        run(['diag', '--staged', '--json']),
        run(['def', 'twice.go:3:twice']),
        run(['symbols', 'twice.go']),
        run(['diag', 'twice.go', '--json']),
      ]);
      expect({ round, def }).toEqual({ round, def: expected.def });
      expect({ round, symbols }).toEqual({ round, symbols: expected.symbols });
      // On disk, twice is unused: diag sees the disk's file, never the staged one.
      expect({ round, exit: diag.exit, staged: diag.stdout.includes('stagedOnly') }).toEqual({
        round,
        exit: 0,
        staged: false,
      });
      expect({ round, exit: staged.exit, files: JSON.parse(staged.stdout).files }).toEqual({
        round,
        exit: 0,
        files: ['twice.go'],
      });
    }
    // The work tree was never written.
    expect(readFileSync(file, 'utf8')).toBe('package main\n\nfunc twice(x int) int { return 2 * x }\n');
  }, 300_000);

  test('two actions --apply at once on two files: each file gets its own edit, each command reports its own', async () => {
    const dir = fakeProject('two-applies', 'slow-command');
    scratch.push(dir);
    const [a, b] = await Promise.all([
      lspq.run(['actions', 'a.fake:1', '--apply', '1'], { cwd: dir }),
      lspq.run(['actions', 'b.fake:1', '--apply', '1'], { cwd: dir }),
    ]);
    expect(a).toEqual({ exit: 0, stdout: 'a.fake: 1 edit\n', stderr: 'lspq: applied 1: Fix it by command\n' });
    expect(b).toEqual({ exit: 0, stdout: 'b.fake: 1 edit\n', stderr: 'lspq: applied 1: Fix it by command\n' });
    expect(readFileSync(join(dir, 'a.fake'), 'utf8')).toBe('fixed a\n');
    expect(readFileSync(join(dir, 'b.fake'), 'utf8')).toBe('fixed b\n');
  }, 60_000);
});
