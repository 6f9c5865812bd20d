/**
 * Bulk changes on disk, asked about at once: `sed -i` over 151 files, `git
 * checkout`, `git stash` and `pop`, a generator writing 20 files, then at
 * once refs, rename and diag, on every server that answers them. Each
 * answer must be the whole one for the files as they are: before lspq read
 * the kernel's queue of file events itself and told each server what its
 * own watcher would, refs gave 270 to 447 of 450 with exit 0, and a rename
 * wrote 143 of 151 files.
 *
 * LSPQ_BULK_ROUNDS sets the rounds per server (2 here; docs/servers.md
 * gives the result of 50).
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type BulkProject, bulkProject } from '../helpers/bulk-project';
import { git, Lspq, REPO, toolsPath } from '../helpers/lspq';

const ROUNDS = Number(process.env.LSPQ_BULK_ROUNDS ?? 2);
const USES = 150;
const GENERATED = 20;

const lspq = new Lspq();
const scratch: string[] = [];
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

interface Case {
  server: string;
  lang: 'ts' | 'py' | 'go' | 'rs' | 'c';
  /** References a use file holds (gopls does not count an import as one; every other server does). */
  perUse: number;
  /** diag's level for a call of a name no longer declared (clangd 14: an implicit declaration, a warning). */
  failOn?: string;
  /** The server's own refusal of a rename across this many files (clangd 14 renames in at most 50). */
  renameRefused?: string;
}

const CASES: Case[] = [
  { server: 'typescript', lang: 'ts', perUse: 3 },
  { server: 'typescript-language-server', lang: 'ts', perUse: 3 },
  { server: 'pyright', lang: 'py', perUse: 3 },
  { server: 'gopls', lang: 'go', perUse: 2 },
  { server: 'rust-analyzer', lang: 'rs', perUse: 3 },
  {
    server: 'clangd',
    lang: 'c',
    perUse: 2,
    failOn: 'warning',
    renameRefused:
      "lspq: lib.h:1:5 cannot be renamed to 'thrice': The number of affected files exceeds the max limit 50\n",
  },
];

function sh(dir: string, command: string): void {
  const r = Bun.spawnSync(['bash', '-c', command], { cwd: dir, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`${command}: ${r.stderr.toString()}`);
}

for (const c of CASES) {
  describe(`${c.server}: bulk changes on disk, asked at once`, () => {
    const p: BulkProject = bulkProject(c.lang, USES);
    scratch.push(p.dir);
    const [helper, twice, thrice] = [p.name('helper'), p.name('twice'), p.name('thrice')];
    const full = USES * c.perUse;
    const server = ['--server', c.server];
    const sed = (from: string, to: string, files = p.files) =>
      sh(p.dir, `sed -i 's/${from}/${to}/g' ${files.join(' ')}`);
    const checkout = () => git(p.dir, 'checkout', '-q', '--', '.');
    const generated: string[] = [];
    /** Back to the commit, whatever a failed test left: the rounds after it start clean. */
    const reset = () => {
      for (const f of generated.splice(0)) rmSync(join(p.dir, f), { force: true });
      checkout();
    };
    /** A round's test: the project is reset after it, pass or fail. */
    const round = (name: string, fn: () => Promise<void>) =>
      test(name, async () => {
        try {
          await fn();
        } finally {
          reset();
        }
      });
    /** What a rename of `helper` writes: every occurrence, in every file naming it. */
    const occurrences = p.files.reduce((n, f) => n + readFileSync(join(p.dir, f), 'utf8').split(helper).length - 1, 0);

    /** The number of references of `name`, asked at its declaration, and the exit code. */
    async function refs(name: string): Promise<{ total: number; exit: number }> {
      const r = await lspq.run(['refs', `${p.decl}:${name}`, '--json', '--limit', '1000', ...server], { cwd: p.dir });
      if (r.exit > 1) throw new Error(`refs ${name}: exit ${r.exit}: ${r.stderr}`);
      return { total: (JSON.parse(r.stdout) as { total: number }).total, exit: r.exit };
    }

    test('warm: every reference, asked twice', async () => {
      expect(await refs(helper)).toEqual({ total: full, exit: 0 });
      expect(await refs(helper)).toEqual({ total: full, exit: 0 });
    });

    for (let n = 1; n <= ROUNDS; n++) {
      round(`round ${n}: sed over ${p.files.length} files, then git checkout`, async () => {
        sed(helper, twice);
        expect(await refs(twice)).toEqual({ total: full, exit: 0 });
        checkout();
        expect(await refs(helper)).toEqual({ total: full, exit: 0 });
      });

      round(`round ${n}: git stash, then git stash pop`, async () => {
        sed(helper, twice);
        git(p.dir, 'stash', '-q');
        expect(await refs(helper)).toEqual({ total: full, exit: 0 });
        git(p.dir, 'stash', 'pop', '-q');
        expect(await refs(twice)).toEqual({ total: full, exit: 0 });
      });

      round(`round ${n}: a generator writes ${GENERATED} files, then they are removed`, async () => {
        generated.push(...Array.from({ length: GENERATED }, (_, k) => p.extra(k, helper)));
        expect(await refs(helper)).toEqual({ total: full + GENERATED * c.perUse, exit: 0 });
        reset();
        expect(await refs(helper)).toEqual({ total: full, exit: 0 });
      });

      round(`round ${n}: sed, then at once a rename writes every file`, async () => {
        sed(helper, twice);
        const r = await lspq.run(['rename', `${p.decl}:${twice}`, thrice, ...server], { cwd: p.dir });
        const texts = p.files.map((f) => readFileSync(join(p.dir, f), 'utf8'));
        if (c.renameRefused) {
          expect([r.stderr, r.exit]).toEqual([c.renameRefused, 2]);
          expect(texts.filter((t) => t.includes(thrice))).toEqual([]);
          return;
        }
        expect(r.stderr).toBe(`lspq: renamed to '${thrice}': ${occurrences} edits in ${p.files.length} files\n`);
        expect(r.exit).toBe(0);
        expect(texts.filter((t) => t.includes(twice))).toEqual([]);
        expect(texts.filter((t) => t.includes(thrice)).length).toBe(p.files.length);
      });

      round(`round ${n}: the declaration renamed by sed, then diag of a caller; checked out, clean again`, async () => {
        sed(helper, twice, [p.decl.split(':')[0]!]);
        const failOn = ['--fail-on', c.failOn ?? 'error'];
        const broken = await lspq.run(['diag', p.use, ...failOn, ...server], { cwd: p.dir });
        // stderr beside the exit: what a server was waited for shows in a failure's report.
        expect([broken.exit, broken.stderr]).toEqual([1, expect.any(String)]);
        expect(broken.stdout).toContain(`${p.use}:`);
        expect(broken.stdout).toContain(helper);
        reset();
        const clean = await lspq.run(['diag', p.use, ...failOn, ...server], { cwd: p.dir });
        expect([clean.exit, clean.stdout, clean.stderr]).toEqual([0, '', expect.any(String)]);
      });
    }

    // The folder the server was started in is gone (rust-analyzer, working in it, kept the kernel from ending its
    // watch): before lspq compared the root's identity, the new tree's files reached no server, and refs left out
    // every generated file with exit 0.
    round('the project deleted and cloned afresh at its path, then a generator writes files', async () => {
      const origin = `${p.dir}-origin`;
      scratch.push(origin);
      git(dirname(p.dir), 'clone', '-q', p.dir, origin);
      rmSync(p.dir, { recursive: true, force: true });
      git(dirname(p.dir), 'clone', '-q', origin, p.dir);
      generated.push(...Array.from({ length: GENERATED }, (_, k) => p.extra(k, helper)));
      expect(await refs(helper)).toEqual({ total: full + GENERATED * c.perUse, exit: 0 });
    });
  });
}

describe('rust-analyzer starting no check when asked, then ending cancelled checks as it ends checks of fresh crates (a fake, as under load)', () => {
  // Under load, asks reach rust-analyzer spread out, and each cancels the check under way: it ends a cancelled
  // check with no report, the same end as a check of fresh crates, and begins the next a moment later. diag took
  // two such ends for "fresh" and answered clean (exit 0) before the check that found the error had begun. And a
  // save whose task a change cancels starts no check at all: diag waited out its deadline (exit 3).
  const dir = mkdtempSync(join(tmpdir(), 'lspq-cancelled-checks-'));
  scratch.push(dir);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'rust-analyzer'),
    `#!/bin/sh\nexec '${process.execPath}' '${join(REPO, 'test', 'fakes', 'cancels-its-checks.ts')}' "$@"\n`,
  );
  chmodSync(join(bin, 'rust-analyzer'), 0o755);
  const project = join(dir, 'crate');
  mkdirSync(join(project, 'src', 'uses'), { recursive: true });
  writeFileSync(join(project, 'Cargo.toml'), '[package]\nname = "bulk"\nversion = "0.1.0"\nedition = "2021"\n');
  writeFileSync(join(project, 'src', 'lib.rs'), 'pub fn twice(n: i64) -> i64 {\n    n * 2\n}\npub mod uses;\n');
  writeFileSync(join(project, 'src', 'uses', 'mod.rs'), 'pub mod u0;\n');
  writeFileSync(
    join(project, 'src', 'uses', 'u0.rs'),
    'use crate::helper;\npub fn a0() -> i64 {\n    helper(helper(0))\n}\n',
  );

  test('diag waits for the check that runs to its end: the error, exit 1', async () => {
    const r = await lspq.run(['diag', 'src/uses/u0.rs', '--server', 'rust-analyzer'], {
      cwd: project,
      env: { PATH: `${bin}:${toolsPath()}` },
    });
    expect([r.stdout, r.exit]).toEqual([
      'src/uses/u0.rs:3:5: error: cannot find function `helper` in this scope [rustc E0425]\n',
      1,
    ]);
  });
});
