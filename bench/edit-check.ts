/**
 * An edit checked at the server's own speed: `diag --patch` (in memory)
 * and `hook run --for claude` (the edit written, as an agent's hook sees
 * it) against the floor client, side by side, on one-file edits of five
 * published projects, each with its common server (TypeScript 7 and
 * typescript-language-server, pyright, gopls, rust-analyzer).
 *
 * The floor is the least any client can do for the same answer: the same
 * server started by this process through lspq's protocol client, the files
 * lspq checked open and diagnosed, then the change sent as an edit of the
 * open document and the same files' diagnostics waited for by the
 * server's own barrier (a pull, gopls's diagnose_files, tsserver's
 * requests; never a timer), then put back. The hook's floor is the same
 * with the change written to disk and the open document told of it as an
 * editor's save, what a server must take in for an edit already made. The
 * floor's server works on a copy of the project, so its writes are not
 * the daemon's. lspq's figure over the floor is what it does around that:
 * the daemon, the command's process, choosing the files, the state before
 * the edit, the tree given back.
 *
 * Prints markdown; `bun bench/edit-check.ts` (BENCH_RUNS=20,
 * BENCH_PROJECTS=attrs,cobra narrows it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { LspClient } from '../src/lsp/client';
import { completeDiagnostics, publishMarks } from '../src/lsp/complete-diagnostics';
import { Documents } from '../src/lsp/documents';
import { SessionLock } from '../src/lsp/leases';
import type { Session } from '../src/lsp/manager';
import { locateBinary } from '../src/lsp/servers/locate';
import { BUILTIN_SERVERS } from '../src/lsp/servers/registry';
import { Trust } from '../src/trust/decision';
import { anyhowAt, attrsAt, cobraAt, immerAt, queryCoreAt } from '../test/helpers/published';
import { fmt, interleaved, median, RUNS, runLspq, table, toolsEnv } from './harness';
import { WORK } from './projects';

const TIMEOUT_MS = 300_000;

interface Case {
  project: string;
  server: string;
  /** Makes the project at `dir` and returns its root. */
  at: (dir: string) => string;
  /** Outside the checkout: TypeScript 7 is found in node_modules above a project, and this case asks the other server. */
  outside?: boolean;
  /** Each edited file and what is appended to it: a new definition, which breaks nothing. */
  edits: string[];
  appended: string;
}

const QUERY_CORE = {
  project: 'query-core 5.108.4',
  at: queryCoreAt,
  edits: ['src/utils.ts', 'src/streamedQuery.ts'],
  appended: '\nexport function addedByBench(n: number): number {\n  return n\n}\n',
};

const CASES: Case[] = [
  {
    project: 'immer 11.2.10',
    server: 'typescript',
    at: immerAt,
    edits: ['src/utils/common.ts', 'src/plugins/patches.ts'],
    appended: '\nexport function addedByBench(n: number): number {\n\treturn n\n}\n',
  },
  { ...QUERY_CORE, server: 'typescript' },
  { ...QUERY_CORE, server: 'typescript-language-server', outside: true },
  {
    project: 'attrs 25.3.0',
    server: 'pyright',
    at: attrsAt,
    edits: ['src/attr/_make.py', 'src/attr/validators.py'],
    appended: '\n\ndef added_by_bench(n: int) -> int:\n    return n\n',
  },
  {
    project: 'cobra 1.8.1',
    server: 'gopls',
    at: cobraAt,
    edits: ['command.go', 'args.go'],
    appended: '\nfunc AddedByBench(n int) int { return n }\n',
  },
  {
    project: 'anyhow 1.0.98',
    server: 'rust-analyzer',
    at: anyhowAt,
    edits: ['src/error.rs', 'src/context.rs'],
    appended: '\npub fn added_by_bench(n: u32) -> u32 {\n    n\n}\n',
  },
];

/** The floor: the server alone, driven by this process. */
async function floorServer(c: Case, root: string, env: Record<string, string>) {
  const spec = BUILTIN_SERVERS.find((s) => s.id === c.server)!;
  const binary = locateBinary(spec, root, env, Trust.everything());
  if (!binary) throw new Error(`${spec.id} not found: run scripts/install-servers.sh`);
  const client = await LspClient.start({ spec, binary, root, env });
  const session: Session = {
    key: 'floor',
    binary,
    envKey: {},
    client,
    docs: new Documents(client),
    lastUsed: Date.now(),
    inFlight: 0,
    lock: new SessionLock(),
    extra: false,
    startedWith: env,
  };
  const deadline = Date.now() + TIMEOUT_MS;
  const options = { deadline: () => Math.max(1, deadline - Date.now()), ownOnly: true };
  const diagnose = async (files: string[]) => {
    const marks = publishMarks(session, files);
    for (const f of files) await session.docs.sync(f);
    await client.waitFor(() => client.state.isReady(files.map((f) => session.docs.uri(f))), TIMEOUT_MS, 'loading');
    return completeDiagnostics(session, files, marks, options);
  };
  return {
    diagnose,
    /** The change as an edit of the open document, the same files diagnosed, then the disk's text back (not timed). */
    async check(path: string, text: string, files: string[]): Promise<number> {
      const start = performance.now();
      const marks = publishMarks(session, files);
      await session.docs.overlay(path, text);
      await completeDiagnostics(session, files, marks, options);
      const ms = performance.now() - start;
      await session.docs.endOverlay(path);
      await diagnose(files);
      return ms;
    },
    /** The change written to disk and the open document told of it as an editor's save (what a hook's server must take in), the same files diagnosed; then the disk's text back (not timed). */
    async checkWritten(path: string, before: string, after: string, files: string[]): Promise<number> {
      const start = performance.now();
      const marks = publishMarks(session, files);
      writeFileSync(path, after);
      await session.docs.refreshAll();
      await completeDiagnostics(session, files, marks, options);
      const ms = performance.now() - start;
      writeFileSync(path, before);
      await session.docs.refreshAll();
      await diagnose(files);
      return ms;
    },
    close: () => client.shutdown(),
  };
}

interface Row {
  c: Case;
  file: string;
  checked: number;
  of: number;
  patch: number;
  hook: number;
  floor: number;
  /** The floor for a change written to disk (the hook's): the server told of it as a save. */
  floorWritten: number;
}

async function measure(c: Case): Promise<Row[]> {
  const dir = c.outside ? mkdtempSync(join(tmpdir(), 'lspq-edit-check-')) : join(WORK, `edit-check-${c.server}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const root = c.at(dir);
  // The floor's server works on a copy: its writes (a change as a hook's, put back) are not the daemon's to hear.
  const floorDir = `${dir}-floor`;
  rmSync(floorDir, { recursive: true, force: true });
  mkdirSync(floorDir, { recursive: true });
  const floorRoot = c.at(floorDir);
  const mirror = (p: string) => join(floorRoot, relative(root, p));
  // Trusted, so the project's own TypeScript 7 answers as it does for a user who trusted it.
  const env = toolsEnv({
    LSPQ_SOCKET: join(mkdtempSync(join(tmpdir(), 'lspq-edit-')), 'daemon.sock'),
    LSPQ_TRUST: 'all',
  });
  const rows: Row[] = [];
  const floor = await floorServer(c, floorRoot, env);
  try {
    const all = await runLspq(['diag', '--all', '--json', '--fail-on', 'never'], root, env);
    const every = (JSON.parse(all.stdout) as { files: string[] }).files;
    for (const file of c.edits) {
      const path = join(root, file);
      const before = readFileSync(path, 'utf8');
      const after = before + c.appended;
      const patchFile = join(dir, 'edit.patch');
      writeFileSync(patchFile, createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after));
      const asked = await runLspq(['diag', '--patch', patchFile, '--json'], root, env);
      const answer = JSON.parse(asked.stdout) as { files: string[]; diagnostics: unknown[] };
      if (asked.exit !== 0 && asked.exit !== 3) throw new Error(`${c.server} ${file}: ${asked.stderr}`);
      const files = answer.files.map((f) => join(root, f));
      const floorFiles = files.map(mirror);
      await floor.diagnose(floorFiles);
      const hookInput = JSON.stringify({
        hook_event_name: 'PostToolUse',
        tool_name: 'Edit',
        cwd: root,
        tool_input: { file_path: path, old_string: '', new_string: c.appended },
      });
      const [patch, hook, floorMs, floorWritten] = await interleaved([
        async () => (await runLspq(['diag', '--patch', patchFile], root, env)).ms,
        async () => {
          writeFileSync(path, after);
          const ms = (await runLspq(['hook', 'run', '--for', 'claude'], root, env, hookInput)).ms;
          writeFileSync(path, before);
          // The daemon sees the file back and the same files diagnosed as the floor has them, as an agent's
          // diag of them would leave it.
          await runLspq(['diag', ...files, '--fail-on', 'never'], root, env);
          return ms;
        },
        () => floor.check(mirror(path), after, floorFiles),
        () => floor.checkWritten(mirror(path), before, after, floorFiles),
      ]);
      rows.push({
        c,
        file,
        checked: files.length,
        of: every.length,
        patch: median(patch!),
        hook: median(hook!),
        floor: median(floorMs!),
        floorWritten: median(floorWritten!),
      });
    }
  } finally {
    await floor.close();
    await runLspq(['daemon', 'stop'], root, env);
    if (c.outside) rmSync(dir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
  return rows;
}

const only = process.env.BENCH_PROJECTS?.split(',');
const rows: Row[] = [];
for (const c of CASES) {
  if (only && !only.some((o) => c.project.startsWith(o) || c.server === o)) continue;
  rows.push(...(await measure(c)));
}
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
console.log(
  table(
    [
      'project',
      'server',
      'file edited',
      'files checked',
      'floor ms',
      'diag --patch ms',
      'patch / floor',
      'floor written ms',
      'hook ms',
      'hook / floor written',
    ],
    rows.map((r) => [
      r.c.project,
      r.c.server,
      r.file,
      `${r.checked} of ${r.of}`,
      fmt(r.floor),
      fmt(r.patch),
      ratio(r.patch, r.floor),
      fmt(r.floorWritten),
      fmt(r.hook),
      ratio(r.hook, r.floorWritten),
    ]),
  ),
);
console.log(`\nmedians of ${RUNS} interleaved runs each; ${new Date().toISOString().slice(0, 10)}`);
