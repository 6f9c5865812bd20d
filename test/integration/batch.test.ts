/**
 * lspq batch: one process, one connection, answers in input order with the
 * commands' own JSON; ids, mixed commands and servers, a bad line in the
 * middle, concurrency (a fake server that answers only two questions at
 * once), and an interrupted batch that cancels what is in flight.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, fakeProject, FIXTURES, Lspq, lspqArgv } from '../helpers/lspq';

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const go = join(FIXTURES, 'go-shapes');

async function batch(
  lines: string[],
  args: string[] = [],
  cwd = go,
): Promise<{ answers: Record<string, unknown>[]; stderr: string; exit: number }> {
  const proc = Bun.spawn([...lspqArgv(), 'batch', ...args], {
    cwd,
    env: lspq.env(),
    stdin: new TextEncoder().encode(lines.map((l) => `${l}\n`).join('')),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stdout, stderr, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return {
    answers: stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
    stderr,
    exit,
  };
}

/** What the same command prints with --json on its own: a batch answer carries exactly that. */
async function alone(args: string[], cwd = go): Promise<unknown> {
  return JSON.parse((await lspq.run([...args, '--json'], { cwd })).stdout);
}

describe('batch', () => {
  test('answers in input order, each the command own --json document; ids kept; a bad line answered in its place', async () => {
    const r = await batch([
      '["hover", "geometry.go:9:sumAreas"]',
      '{"id": "refs-1", "args": ["refs", "shape.go:4:Shape"]}',
      'not json',
      '["def", "main.go:99:1"]',
      '{"id": 3, "args": ["symbols", "circle.go"]}',
      '["git", "status"]',
      '',
      '["def", "main.go:7:TotalArea"]',
    ]);
    expect(r.answers).toEqual([
      { exit: 0, answer: await alone(['hover', 'geometry.go:9:sumAreas']) },
      { id: 'refs-1', exit: 0, answer: await alone(['refs', 'shape.go:4:Shape']) },
      {
        exit: 2,
        error: {
          code: 'usage',
          message: 'not JSON: write a request as ["hover", "FILE:LINE:COL"] or {"id": 1, "args": [...]}',
        },
      },
      { exit: 2, error: { code: 'bad_position', message: 'line 99 is outside main.go, which has 8 lines' } },
      { id: 3, exit: 0, answer: await alone(['symbols', 'circle.go']) },
      { exit: 2, error: { code: 'usage', message: "'git' does not run in a batch; run it on its own" } },
      { exit: 0, answer: await alone(['def', 'main.go:7:TotalArea']) },
    ]);
    // The worst answer's exit code.
    expect([r.exit, r.stderr]).toEqual([2, '']);
  });

  test('several servers and roots in one batch; asked again, the same answers; --no-daemon too', async () => {
    const lines = [
      `["def", "${FIXTURES}/ts-shapes/src/main.ts:7:totalArea"]`,
      `["def", "${FIXTURES}/py-shapes/main.py:7:total_area"]`,
      '["def", "main.go:7:TotalArea"]',
      '["diag", "geometry.go"]',
    ];
    const first = await batch(lines, ['--jobs', '3']);
    expect(first.answers.map((a) => [a.exit, (a.answer as { server: string | undefined }).server])).toEqual([
      [0, 'typescript'],
      [0, 'pyright'],
      [0, 'gopls'],
      [0, 'gopls'],
    ]);
    expect((await batch(lines, ['--jobs', '3'])).answers).toEqual(first.answers);
    expect((await batch(lines, ['--no-daemon'])).answers).toEqual(first.answers);
  });

  test("docs/batch.md's recipe: every reference of a symbol, hovered (the jq step done here)", async () => {
    const refs = await alone(['refs', 'shape.go:4:Shape']);
    const places = (refs as { locations: { path: string; line: number; column: number }[] }).locations.map(
      (l) => `${l.path}:${l.line}:${l.column}`,
    );
    const r = await batch(places.map((p) => JSON.stringify(['hover', p])));
    expect(r.answers.length).toBe(4);
    for (const [i, place] of places.entries())
      expect(r.answers[i]).toEqual({ exit: 0, answer: await alone(['hover', place]) });
  });

  test('an answer only an exit code says: nothing found is exit 1 with the answer', async () => {
    const r = await batch(['["refs", "main.go:5:main"]']);
    expect(r.answers).toEqual([{ exit: 1, answer: await alone(['refs', 'main.go:5:main']) }]);
    expect(r.exit).toBe(1);
  });

  test('bad flags of the batch itself: one line, exit 2', async () => {
    const r = await batch([], ['--jobs', '0']);
    expect([r.answers, r.stderr, r.exit]).toEqual([[], "lspq: --jobs takes a whole number of 1 or more, not '0'\n", 2]);
  });
});

describe('an edit in a batch whose daemon dies', () => {
  test('the batch asks the next daemon what became of each edit, names it, and is not sent again', async () => {
    const own = new Lspq();
    const dir = copyFixture('go-shapes');
    scratch.push(dir);
    const before = readFileSync(join(dir, 'geometry.go'), 'utf8');
    // The daemon kills itself at its second crash point: inside the rename's writing.
    const proc = Bun.spawn([...lspqArgv(), 'batch'], {
      cwd: dir,
      env: own.env({ LSPQ_TEST_CRASH_AT: '2' }),
      stdin: new TextEncoder().encode(
        '["def", "main.go:7:TotalArea"]\n["rename", "geometry.go:17:TotalArea", "SumOfAreas"]\n',
      ),
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const [stderr, exit] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(exit).toBe(3);
    expect(stderr).toMatch(
      /^lspq: the daemon stopped while answering the batch \(.*\); of its edits: request 2: taken back \(renamed to 'SumOfAreas': 2 edits in 2 files\); do not run the whole batch again, only what was not done\n$/,
    );
    expect(readFileSync(join(dir, 'geometry.go'), 'utf8')).toBe(before);
    expect(await own.stop()).toEqual([]);
  });
});

describe('batch concurrency and interruption (a fake server)', () => {
  const fake = (server: string) => {
    const dir = fakeProject('batch', server);
    scratch.push(dir);
    return dir;
  };

  test('--jobs 2 asks two questions at once: a server that answers only in pairs answers both, in order', async () => {
    const dir = fake('answers-in-pairs');
    const r = await batch(
      ['{"id": "a", "args": ["def", "a.fake:1:1"]}', '{"id": "b", "args": ["def", "b.fake:1:1"]}'],
      ['--jobs', '2'],
      dir,
    );
    expect(
      r.answers.map((a) => [a.id, a.exit, (a.answer as { locations: { path: string }[] }).locations[0]!.path]),
    ).toEqual([
      ['a', 0, 'a.fake'],
      ['b', 0, 'b.fake'],
    ]);
  });

  test('--jobs 1 asks one at a time: the same pair never gets an answer and each times out (exit 3)', async () => {
    const dir = fake('answers-in-pairs');
    const r = await batch(
      ['["def", "a.fake:1:1", "--timeout", "1"]', '["def", "b.fake:1:1", "--timeout", "1"]'],
      ['--jobs', '1'],
      dir,
    );
    expect(r.answers.map((a) => [a.exit, (a.error as { code: string }).code])).toEqual([
      [3, 'timeout'],
      [3, 'timeout'],
    ]);
  });

  test('SIGINT during a batch: the question in flight is cancelled in the server, and the daemon takes the next question', async () => {
    const dir = fake('hangs-on-definition');
    const proc = Bun.spawn([...lspqArgv(), 'batch'], {
      cwd: dir,
      env: lspq.env(),
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    proc.stdin.write('["def", "a.fake:1:1"]\n');
    await proc.stdin.flush();
    for (let i = 0; i < 200 && !existsSync(join(dir, 'cancelled')); i++) {
      // Wait until the question reached the server: then interrupt.
      if (i === 20) proc.kill('SIGINT');
      await Bun.sleep(50);
    }
    await proc.exited;
    expect(readFileSync(join(dir, 'cancelled'), 'utf8')).toBe('cancelled\n');
    const next = await lspq.run(['def', 'main.go:7:TotalArea'], { cwd: go });
    expect(next.exit).toBe(0);
  });

  test('stdin closed while questions are out: every one asked is answered, then the batch ends', async () => {
    const dir = fake('answers-in-pairs');
    const r = await batch(['["def", "a.fake:1:1"]', '["def", "b.fake:1:1"]'], ['--jobs', '4'], dir);
    expect(r.answers.map((a) => a.exit)).toEqual([0, 0]);
    expect(r.exit).toBe(0);
  });
});
