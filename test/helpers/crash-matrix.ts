/**
 * The crash matrix of crash-edits.test.ts, crash-actions.test.ts and crash-apply.test.ts. Edits across crashes: the daemon
 * is killed (SIGKILL, as kill -9) at every step of writing a rename, a move, a code action, a patch and a formatting of 10
 * files, and at 30 steps spread over the same edits of 150 files
 * (LSPQ_TEST_CRASH_AT: the daemon kills itself at its N-th crash point).
 * Every time the tree ends exactly as before or exactly as after the whole
 * edit, nothing of lspq's is left in it, and the command says which:
 * exit 0 with the edit's summary when it was written, exit 3 when it was
 * taken back. The command is never sent twice.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bulkProject } from './bulk-project';
import { fakeProject, git, Lspq } from './lspq';

let lspq: Lspq;
const scratch: string[] = [];

/** Every file of the tree (not .git), by path, with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === '.git') continue;
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

const lspqMade = (tree: Map<string, string>) => [...tree.keys()].filter((p) => p.includes('.lspq-'));

interface Edit {
  name: string;
  args: string[];
  /** The project it edits, of `files` files (the TypeScript one unless said). */
  project?: (files: number) => string;
  /** Makes the tree this edit starts from (committed), given the project folder. */
  prepare?: (dir: string, files: number) => void;
  /** What the command prints on stderr once it has written the edit. */
  stderr: (files: number) => string;
  /** What its journal says of it: printed instead when the daemon died after writing, before rendering. */
  journal: (files: number) => string;
  /** Run on this many files only; at this many crash points spread over the edit (a slow server to start). */
  only?: number;
  spread?: number;
}

const unformatted = (dir: string, files: number) => {
  for (let i = 0; i < files; i++)
    writeFileSync(
      join(dir, `src/use/u${i}.ts`),
      `import {helper} from '../lib.js';\nexport const a${i}=helper( ${i} );\n`,
    );
};

const EDITS: Edit[] = [
  {
    name: 'rename',
    args: ['rename', 'src/lib.ts:1:helper', 'doubled'],
    stderr: (n) => `lspq: renamed to 'doubled': ${3 * n + 1} edits in ${n + 1} files\n`,
    journal: (n) => `renamed to 'doubled': ${3 * n + 1} edits in ${n + 1} files`,
  },
  {
    name: 'mv',
    args: ['mv', 'src/lib.ts', 'src/core/lib.ts'],
    stderr: (n) => `lspq: moved src/lib.ts -> src/core/lib.ts; ${n} edits in ${n} files\n`,
    journal: (n) => `moved src/lib.ts -> src/core/lib.ts; ${n} edits in ${n} files`,
  },
  {
    name: 'fmt --write',
    args: ['fmt', '--write', 'src/use/*'],
    prepare: unformatted,
    stderr: () => 'lspq: formatted with typescript (the project names no formatter)\n',
    journal: (n) => `formatted ${n} files`,
  },
  {
    // A patch of every use file, checked in memory first, then written by the same writer.
    name: 'apply',
    only: 10,
    prepare: (dir, files) => {
      const hunks = Array.from({ length: files }, (_, i) =>
        [
          `--- a/src/use/u${i}.ts`,
          `+++ b/src/use/u${i}.ts`,
          '@@ -2,2 +2,2 @@',
          ` export const a${i} = helper(${i});`,
          `-export const b${i} = helper(a${i});`,
          `+export const b${i} = helper(a${i} + 1);`,
        ].join('\n'),
      );
      writeFileSync(join(dir, 'change.patch'), `${hunks.join('\n')}\n`);
    },
    args: ['apply', 'change.patch'],
    stderr: (n) =>
      // lib.ts, which the patched files import and which imports none of them, cannot break: not asked.
      `lspq: nothing new with the patch (${n} files touched) in ${n} files; applied change.patch: ${n} files written\n`,
    journal: (n) => `applied change.patch: ${n} files written`,
  },
  {
    // A command that sends its edit of every file back, in two workspace/applyEdit requests: written as one.
    name: 'actions --apply of a command',
    project: (n) => {
      const files = Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}.fake`, `hello ${i}\n`]));
      const dir = fakeProject('crash-action', 'fixes-every-file', files);
      git(dir, 'init', '-q');
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'fake');
      return dir;
    },
    args: ['actions', 'f0.fake:1', '--apply', '1'],
    stderr: () => 'lspq: applied 1: Fix it by command\n',
    journal: () => 'applied 1: Fix it by command',
  },
  {
    // A refactoring whose command sends its edit of every importer back (workspace/applyEdit): a real server.
    name: 'actions --apply',
    only: 10,
    spread: 12,
    args: [
      'actions',
      'src/lib.ts:1:helper',
      '--server',
      'typescript-language-server',
      '--kind',
      'refactor.rewrite.export.default',
      '--apply',
      '1',
    ],
    stderr: () => 'lspq: applied 1: Convert named export to default export\n',
    journal: () => 'applied 1: Convert named export to default export',
  },
];

/** Crash points to try: every one up to `max`, or `count` of them spread over it. */
function points(max: number, count?: number): number[] {
  if (!count || count >= max) return Array.from({ length: max }, (_, i) => i + 1);
  return Array.from({ length: count }, (_, i) => 1 + Math.round((i * (max - 1)) / (count - 1)));
}

/**
 * The matrix for the edits `which` picks, in the test file that calls it
 * (two files share it, so that two workers run it at once).
 */
export function crashMatrix(which: (name: string) => boolean): void {
  lspq = new Lspq();
  afterAll(async () => {
    expect(await lspq.stop()).toEqual([]);
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });
  for (const files of [10, 150]) {
    for (const edit of EDITS.filter((e) => which(e.name))) {
      if (edit.only !== undefined && edit.only !== files) continue;
      describe(`${edit.name} of ${files} files, the daemon killed at each step`, () => {
        const p = { dir: edit.project?.(files) ?? bulkProject('ts', files).dir };
        scratch.push(p.dir);
        if (edit.prepare) {
          edit.prepare(p.dir, files);
          git(p.dir, 'add', '-A');
          git(p.dir, 'commit', '-qm', 'prepared');
        }
        const args = edit.args.flatMap((a) =>
          a === 'src/use/*' ? readdirSync(join(p.dir, 'src/use')).map((f) => `src/use/${f}`) : [a],
        );
        const reset = () => {
          git(p.dir, 'checkout', '-q', '--', '.');
          git(p.dir, 'clean', '-fdq', '-e', 'node_modules');
        };
        const before = snapshot(p.dir);
        let after = new Map<string, string>();
        let steps = 0;

        test('uninterrupted: written, and how many crash points it passes', async () => {
          // The fake server's project commits its .lsp.json: its own code, trusted here.
          expect((await lspq.run(['trust'], { cwd: p.dir })).exit).toBe(0);
          const count = join(lspq.dir, `crash-points-${edit.name}-${files}`);
          const r = await lspq.run(args, { cwd: p.dir, env: { LSPQ_TEST_CRASH_COUNT: count } });
          expect([r.exit, r.stderr]).toEqual([0, edit.stderr(files)]);
          after = snapshot(p.dir);
          expect(after).not.toEqual(before);
          steps = Number(readFileSync(count, 'utf8'));
          expect(steps).toBeGreaterThan(3);
          await lspq.run(['daemon', 'stop']);
          reset();
        });

        test('killed at each step: as before or as after, nothing left, said truly, never sent twice', async () => {
          const tried = points(steps, edit.spread ?? (files > 10 ? 30 : undefined));
          expect(tried.length).toBeGreaterThanOrEqual(Math.min(steps, edit.spread ?? 30));
          const log = join(lspq.dir, 'run', 'daemon.log');
          for (const k of tried) {
            const logged = readFileSync(log, 'utf8').length;
            const r = await lspq.run(args, { cwd: p.dir, env: { LSPQ_TEST_CRASH_AT: String(k) } });
            // Never sent twice: no daemon answered the command itself (the one it went to was killed first).
            expect({ k, answered: readFileSync(log, 'utf8').slice(logged).includes(`${args[0]} (exit`) }).toEqual({
              k,
              answered: false,
            });
            const tree = snapshot(p.dir);
            expect({ k, left: lspqMade(tree) }).toEqual({ k, left: [] });
            if (r.exit === 0) {
              expect({ k, written: tree }).toEqual({ k, written: after });
              if (r.stderr !== edit.stderr(files)) expect(r.stderr).toContain(edit.journal(files));
            } else {
              expect({ k, exit: r.exit, tree }).toEqual({ k, exit: 3, tree: before });
              expect(r.stderr).toMatch(/taken back, every file as it was|before it wrote anything/);
            }
            await lspq.run(['daemon', 'stop']);
            reset();
          }
          // Each step starts a daemon and its server cold: a dozen steps of a TypeScript edit took 78 s in one whole
          // run and past 120 s in a loaded one.
        }, 300_000);
      });
    }
  }
}
