/**
 * Every example a command's --help teaches is a real command line: run
 * here, as a shell would run it, in the fixture it is written for, with the
 * exit code it should have. A renamed fixture symbol or a changed flag
 * fails here before a user copies a broken example.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMANDS } from '../../src/commands/list';
import { copyFixture, FIXTURES, git, Lspq, lspqOnPath, prepareCFixture } from '../helpers/lspq';

/**
 * Where each example runs and how it exits: 1 when it finds problems (diag
 * of a broken file, a file fmt --check would change). `copy`: it writes, so
 * it runs in a scratch copy of the fixture.
 */
const WHERE: Record<string, { in: string; exit?: number; copy?: boolean }> = {
  'lspq def main.go:7:TotalArea': { in: 'go-shapes' },
  'lspq def src/main.ts:7:totalArea --json': { in: 'ts-shapes' },
  'lspq def --symbol Circle.Area': { in: 'go-shapes' },
  'lspq typedef main.go:6:shapes': { in: 'go-shapes' },
  'lspq typedef src/main.ts:7:totalArea --json': { in: 'ts-shapes' },
  'lspq impls src/shape.ts:4:area': { in: 'ts-shapes' },
  'lspq impls shape.go:4:Shape --json': { in: 'go-shapes' },
  'lspq refs shapes/shape.py:7:Shape': { in: 'py-shapes' },
  'lspq refs geometry.go:17:TotalArea --include-declaration': { in: 'go-shapes' },
  'lspq refs --symbol total_area --json': { in: 'py-shapes' },
  'lspq hover geometry.go:9:sumAreas': { in: 'go-shapes' },
  'lspq hover src/geometry.ts:13:totalArea --json': { in: 'ts-shapes' },
  'lspq signature main.go:7:TotalArea': { in: 'go-shapes' },
  'lspq signature src/main.ts:7:totalArea --json': { in: 'ts-shapes' },
  'lspq symbols shape.h': { in: 'c-shapes' },
  'lspq symbols -w total': { in: 'ts-shapes' },
  'lspq symbols src/geometry.ts --kind function': { in: 'ts-shapes' },
  'lspq calls geometry.c:3:area_of --depth 3': { in: 'c-shapes' },
  'lspq calls geometry.go:17:TotalArea --out': { in: 'go-shapes' },
  'lspq calls main.go:5:main --to Shape.Area': { in: 'go-shapes' },
  'lspq actions src/main.ts:1 --kind source': { in: 'ts-shapes' },
  'lspq actions src/main.ts:1-4 --kind source.organizeImports --apply 1 --dry-run': { in: 'ts-shapes' },
  'lspq actions src/main.ts:6:Circle --kind quickfix --json': { in: 'ts-shapes', exit: 1 },
  'lspq fmt main.go': { in: 'go-shapes' },
  'lspq fmt --check *.go': { in: 'go-shapes', exit: 1 },
  'lspq fmt src/geometry.ts --range 3-5 --write': { in: 'ts-shapes', copy: true },
  'lspq rename geometry.go:17:TotalArea SumOfAreas --dry-run': { in: 'go-shapes' },
  'lspq rename shapes/geometry.py:15:total_area area_sum': { in: 'py-shapes', copy: true },
  'lspq rename --symbol Circle Round --dry-run': { in: 'ts-shapes' },
  'lspq mv src/circle.ts src/shapes/circle.ts --dry-run': { in: 'ts-shapes' },
  'lspq index': { in: 'ts-shapes', copy: true },
  'lspq index --root . --json': { in: 'py-shapes', copy: true },
  'lspq mv src/square.ts src/shapes/square.ts': { in: 'ts-shapes', copy: true },
  'lspq mv circle.go round.go --no-update': { in: 'go-shapes', copy: true },
  'lspq diag src/broken.ts': { in: 'ts-diag', exit: 1 },
  // In a repository whose staged change is the broken file: the hook's refusal.
  'lspq diag --staged --fail-on warning': { in: 'repo', exit: 1 },
  'lspq diag --all --json': { in: 'ts-diag', exit: 1 },
  // broken.ts, added since main, holds the only errors: all new.
  'lspq diag --since main --all': { in: 'repo', exit: 1 },
  // The patch gives twice() a return type its body breaks.
  'lspq diag --patch fix.patch': { in: 'ts-diag', exit: 1 },
  // thrice.patch adds a function, and fix.patch then breaks twice() on top of it: step 2 is named.
  'lspq diag --patch thrice.patch --patch fix.patch': { in: 'ts-diag', exit: 1 },
  'lspq apply thrice.patch': { in: 'ts-diag', copy: true },
  'lspq apply fix.patch --json': { in: 'ts-diag', exit: 1, copy: true },
  'lspq apply thrice.patch fix.patch': { in: 'ts-diag', exit: 1, copy: true },
  'printf \'["hover", "geometry.go:9:sumAreas"]\\n["def", "main.go:7:TotalArea"]\\n\' | lspq batch': {
    in: 'go-shapes',
  },
  'echo \'{"id": 1, "args": ["refs", "shape.go:4:Shape"]}\' | lspq batch --jobs 8': { in: 'go-shapes' },
  'lspq git status --json': { in: 'repo' },
  'lspq git log -n 5 --json': { in: 'repo' },
  "lspq git commit -m 'fix parser' --allow-write": { in: 'repo' },
  'lspq schema': { in: 'go-shapes' },
  'lspq schema def': { in: 'go-shapes' },
  'lspq servers --for main.go': { in: 'go-shapes' },
  'lspq servers': { in: 'go-shapes' },
  'lspq servers --json': { in: 'go-shapes' },
  // In the test's repository, recorded in the test's own configuration folder: trusted, listed, revoked.
  'lspq trust --explain': { in: 'repo' },
  'lspq trust': { in: 'repo' },
  'lspq trust --list': { in: 'repo' },
  'lspq trust --revoke': { in: 'repo' },
  'lspq daemon status': { in: 'go-shapes' },
  'lspq daemon logs': { in: 'go-shapes' },
  'lspq daemon stop': { in: 'go-shapes' },
  'lspq completion bash': { in: 'go-shapes' },
  'lspq completion fish': { in: 'go-shapes' },
  'lspq hook': { in: 'go-shapes' },
  'lspq hook claude': { in: 'go-shapes' },
  'lspq hook cursor --json': { in: 'go-shapes' },
  // stdin closed at once: the MCP server starts, reads its end and exits.
  'lspq mcp': { in: 'go-shapes' },
  'lspq mcp --root . --timeout 60': { in: 'go-shapes' },
};

const lspq = new Lspq();
const bin = mkdtempSync(join(tmpdir(), 'lspq-bin-'));
let repo = '';
const copies: string[] = [];

function copy(fixture: string): string {
  const dir = copyFixture(fixture);
  copies.push(dir);
  return dir;
}

beforeAll(() => {
  prepareCFixture();
  lspqOnPath(bin);
  // A repository with one commit and a broken TypeScript file staged, inside the checkout so TypeScript 7 is found.
  mkdirSync(join(FIXTURES, '..', '.scratch'), { recursive: true });
  repo = mkdtempSync(join(FIXTURES, '..', '.scratch', 'help-'));
  cpSync(join(FIXTURES, 'ts-diag'), repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', 'src/clean.ts', 'tsconfig.json');
  git(repo, 'commit', '-q', '-m', 'start');
  git(repo, 'add', 'src/broken.ts');
});

afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(bin, { recursive: true, force: true });
  rmSync(repo, { recursive: true, force: true });
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('every --help example runs', () => {
  const examples = Object.values(COMMANDS).flatMap((spec) => [...spec.examples]);

  test('each example has its place here', () => {
    expect(examples.filter((e) => !WHERE[e])).toEqual([]);
  });

  test.each(examples)('%s', async (example) => {
    const where = WHERE[example]!;
    const cwd = where.in === 'repo' ? repo : where.copy ? copy(where.in) : join(FIXTURES, where.in);
    const env = lspq.env({
      PATH: `${bin}:${lspq.env().PATH}`,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    });
    const proc = Bun.spawn(['sh', '-c', example], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, exit] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ exit, stderr: exit === (where.exit ?? 0) ? '' : stderr }).toEqual({ exit: where.exit ?? 0, stderr: '' });
    if (example.includes('--json')) expect(() => JSON.parse(stdout)).not.toThrow();
    else if (
      !/^lspq (daemon stop|git commit|fmt .*--write|mv .*--no-update|apply thrice\.patch$|trust$|trust --revoke|mcp( |$))/.test(
        example,
      )
    )
      expect(stdout.length).toBeGreaterThan(0);
  });
});
