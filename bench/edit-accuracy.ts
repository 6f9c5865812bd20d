/**
 * How right an edit's check is, beside bench/edit-check.ts's how fast:
 * seeded edits (test/helpers/seeded-edits.ts, seed 1: the server's renames
 * and code actions, a parameter added, an export deleted) of immer
 * (TypeScript 7) and cobra 1.8.1 (gopls), each checked by `diag --patch`
 * (held in memory) and by `hook run --for claude` (written one file at a
 * time, a PreToolUse before each write and a PostToolUse after it, as an
 * agent's Edit or Write), and scored against the project's own checker on
 * a scratch copy before and after the edit (`git apply`): `tsc --noEmit`
 * for immer; `go build`, `go vet` and each package's test compile for
 * cobra (vet stops at a package's first type error; the compile with -e
 * names every one, its test files' included).
 *
 * A problem the edit introduced is one the checker reports after it and
 * not before (a multiset by file and message), placed by file and line as
 * it stands after. A check is exact where the errors and warnings it says
 * are new stand at those places and nowhere else. The hook is scored per
 * file written, against the checker's state just before that write.
 *
 * Prints markdown; `bun bench/edit-accuracy.ts` (BENCH_EDITS=20,
 * BENCH_PROJECTS=immer,cobra narrows it).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type Edit, GO, type Language, seededEdits, TYPESCRIPT } from '../test/helpers/seeded-edits';
import { git } from '../test/helpers/lspq';
import { cobraAt, immerAt } from '../test/helpers/published';
import { fmt, median, type Ran, runLspq, table, toolsEnv } from './harness';
import { REPO, WORK } from './projects';

const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const SEED = 1;
/** What both checks count: a hint or an info is not a broken place. */
const COUNTED = new Set(['error', 'warning']);

/** One problem the checker reported: where, and what (its file and message, for the multiset). */
interface Problem {
  file: string;
  line: number;
  message: string;
}

/** What the checker said of a tree: its problems, and the files it could not look at (a dependency failed to compile). */
interface State {
  problems: Problem[];
  unchecked: Set<string>;
}

interface Case {
  project: string;
  server: string;
  at: (dir: string) => string;
  lang: Language;
  /** The files whose declarations are edited, of those git lists. */
  sources: (files: string[]) => string[];
  checker: string;
  check: (root: string) => State;
}

function spawn(argv: string[], cwd: string): { out: string; exit: number } {
  const r = Bun.spawnSync(argv, { cwd, env: toolsEnv(), stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  return { out: r.stdout.toString() + r.stderr.toString(), exit: r.exitCode };
}

function tscState(root: string): State {
  const r = spawn([join(REPO, 'node_modules', '.bin', 'tsc'), '--noEmit', '-p', '.', '--pretty', 'false'], root);
  const found = r.out.split('\n').flatMap((l) => {
    const m = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(l);
    return m ? [{ file: m[1]!, line: Number(m[2]), message: `${m[3]} ${m[4]}` }] : [];
  });
  if (r.exit !== 0 && found.length === 0) throw new Error(`tsc failed in ${root} with nothing to read: ${r.out}`);
  return { problems: found, unchecked: new Set() };
}

/**
 * A package's files by the unit the compiler checks them in: the package
 * with its own tests, and its external tests (package p_test), which
 * import that unit and so go unchecked when it fails.
 */
function goPackages(root: string) {
  const format =
    '{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles " "}} {{join .TestGoFiles " "}}\t{{join .XTestGoFiles " "}}';
  return spawn(['go', 'list', '-e', '-f', format, './...'], root)
    .out.trim()
    .split('\n')
    .map((l) => {
      const [path, dir, own, external] = l.split('\t');
      const files = (names: string | undefined) =>
        (names ?? '')
          .split(' ')
          .filter(Boolean)
          .map((n) => relative(root, join(dir!, n)));
      return { path: path!, own: files(own), external: files(external) };
    });
}

function goState(root: string): State {
  const packages = goPackages(root);
  const outputs = [spawn(['go', 'build', '-gcflags=-e', './...'], root).out, spawn(['go', 'vet', './...'], root).out];
  const unchecked = new Set<string>();
  for (const p of packages) {
    const out = spawn(['go', 'test', '-c', '-o', '/dev/null', '-vet=off', '-gcflags=-e', p.path], root).out;
    outputs.push(out);
    // `# UNIT [TEST]` heads the errors of each unit that failed; the units that import it were not compiled.
    const failed = out.split('\n').flatMap((l) => (l.startsWith('# ') ? [l.slice(2).split(' ')[0]!] : []));
    const dependency = failed.some((u) => u !== p.path && u !== `${p.path}_test`);
    for (const f of [...(dependency ? p.own : []), ...(dependency || failed.includes(p.path) ? p.external : [])])
      unchecked.add(f);
  }
  const seen = new Map<string, Problem>();
  for (const line of outputs.join('\n').split('\n')) {
    // vet says a type error as `vet: ./f.go:L:C+1: ...`, the compiler as `./f.go:L:C: ...`: one problem.
    const m = /^(?:vet: )?(?:\.\/)?([^\s:]+\.go):(\d+):(?:\d+:)? (.*)$/.exec(line);
    if (m) seen.set(`${m[1]}:${m[2]}:${m[3]}`, { file: m[1]!, line: Number(m[2]), message: m[3]! });
  }
  return { problems: [...seen.values()], unchecked };
}

const CASES: Case[] = [
  {
    project: 'immer 11.2.10',
    server: 'TypeScript 7',
    at: immerAt,
    lang: TYPESCRIPT,
    sources: (files) => files.filter((f) => f.startsWith('src/') && f.endsWith('.ts') && !f.endsWith('.d.ts')),
    checker: '`tsc --noEmit -p .`',
    check: tscState,
  },
  {
    project: 'cobra 1.8.1',
    server: 'gopls',
    at: cobraAt,
    lang: GO,
    sources: (files) => files.filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')),
    checker: '`go build`, `go vet`, `go test -c` per package',
    check: goState,
  },
];

const placeOf = (file: string, line: number) => `${file}:${line}`;

/**
 * The places of the problems `after` has that `before` had not, by file
 * and message: an instance at a line the same problem held before is the
 * old one, then the rest pair in line order (an edit seldom reorders them).
 * A file the checker could not look at in either state has no truth.
 */
function introduced(before: State, after: State): Map<string, string> {
  const keyOf = (p: Problem) => `${p.file}\0${p.message}`;
  const old = new Map<string, number[]>();
  for (const p of before.problems) old.set(keyOf(p), [...(old.get(keyOf(p)) ?? []), p.line]);
  const fresh = new Map<string, string>();
  const byKey = new Map<string, Problem[]>();
  for (const p of after.problems)
    if (!before.unchecked.has(p.file) && !after.unchecked.has(p.file))
      byKey.set(keyOf(p), [...(byKey.get(keyOf(p)) ?? []), p]);
  for (const [key, ps] of byKey) {
    const lines = old.get(key) ?? [];
    const unpaired = ps.filter((p) => !lines.includes(p.line)).sort((a, b) => a.line - b.line);
    const leftOld = lines.filter((l) => !ps.some((p) => p.line === l)).length;
    for (const p of unpaired.slice(leftOld)) fresh.set(placeOf(p.file, p.line), p.message);
  }
  return fresh;
}

/** A check of an edit (or one file's write of it) against the truth: both as place -> message. */
interface Scored {
  truth: Map<string, string>;
  said: Map<string, string>;
  /** The files the checker could not look at, before or after: what is said there is neither right nor wrong. */
  unchecked: Set<string>;
  /** Places told only by their count: the hook lists 20 lines, then `... and N more` with the command that lists them. */
  cut: number;
  /** The check gave no whole answer (diag's exit 2 or 3; the hook's exit 1, a check not whole): its line. */
  couldNot?: string;
  ms: number;
  bytes: number;
}

const fileOf = (place: string) => place.slice(0, place.lastIndexOf(':'));
const unverifiable = (s: Scored) => [...s.said.keys()].filter((p) => s.unchecked.has(fileOf(p)));
const falseAlarms = (s: Scored) => [...s.said.keys()].filter((p) => !s.truth.has(p) && !s.unchecked.has(fileOf(p)));
const unlisted = (s: Scored) => [...s.truth.keys()].filter((p) => !s.said.has(p));
/** The broken places neither listed nor among those told by count. */
const missed = (s: Scored) => Math.max(0, unlisted(s).length - s.cut);
const exact = (s: Scored) => !s.couldNot && falseAlarms(s).length === 0 && unlisted(s).length === s.cut;

/** One file of an edit: its text before and after (null: absent). */
interface Step {
  file: string;
  before: string | null;
  after: string | null;
}

const readOrNull = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null);

function put(path: string, text: string | null): void {
  if (text === null) {
    if (existsSync(path)) unlinkSync(path);
    return;
  }
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

function restore(root: string): void {
  git(root, 'checkout', '-q', '--', '.');
  git(root, 'clean', '-qfd');
}

/**
 * The edit's files in its patch's order, each before and after as `git
 * apply` leaves it in the scratch copy; the checker's problems in each
 * state on the way (the files written one by one); the copy given back.
 */
function truthOf(c: Case, scratch: string, edit: Edit, clean: State) {
  const patch = join(scratch, '.git', 'accuracy.patch');
  writeFileSync(patch, edit.patch);
  const files = git(scratch, 'apply', '--numstat', patch)
    .trim()
    .split('\n')
    .map((l) => l.split('\t')[2]!);
  const before = files.map((f) => readOrNull(join(scratch, f)));
  git(scratch, 'apply', patch);
  const steps = files.map((file, i) => ({ file, before: before[i]!, after: readOrNull(join(scratch, file)) }));
  restore(scratch);
  const states = [clean];
  let checkerMs = 0;
  try {
    for (const s of steps) {
      put(join(scratch, s.file), s.after);
      const start = performance.now();
      states.push(c.check(scratch));
      checkerMs = performance.now() - start;
    }
  } finally {
    restore(scratch);
  }
  return { steps, states, checkerMs };
}

const bytesOf = (r: Ran) => Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);

/** The new errors and warnings of `diag --patch --json`, as place -> message. */
function patchSaid(r: Ran): Map<string, string> {
  const doc = JSON.parse(r.stdout) as {
    diagnostics?: { path: string; line: number; severity: string; message: string; new?: boolean }[];
  };
  const said = new Map<string, string>();
  for (const d of doc.diagnostics ?? [])
    if (d.new && COUNTED.has(d.severity)) said.set(placeOf(d.path, d.line), d.message.split('\n')[0]!);
  return said;
}

/** The problems the hook told Claude (its stderr's `path:line:col: severity: message` lines), as place -> message, and how many more it only counted. */
function hookSaid(r: Ran): { said: Map<string, string>; cut: number } {
  const said = new Map<string, string>();
  let cut = 0;
  for (const line of r.stderr.split('\n')) {
    const m = /^(\S.*?):(\d+):\d+: (error|warning|info|hint): (.*)$/.exec(line);
    if (m && COUNTED.has(m[3]!)) said.set(placeOf(m[1]!, Number(m[2])), m[4]!);
    cut += Number(/^\.\.\. and (\d+) more; all \d+: /.exec(line)?.[1] ?? 0);
  }
  return { said, cut };
}

/** Claude Code's Edit of a file as its input says it: the changed lines, widened until the old text stands once. */
function replacement(before: string, after: string): { old_string: string; new_string: string } {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  for (;;) {
    const old = a.slice(start, a.length - end).join('\n');
    const once = old !== '' && before.indexOf(old) === before.lastIndexOf(old);
    if (once || (start === 0 && end === 0))
      return { old_string: old, new_string: b.slice(start, b.length - end).join('\n') };
    if (start > 0) start--;
    if (end > 0) end--;
  }
}

/** The edit made as an agent makes it, one file at a time, the hook run around each write; each write scored. */
async function hookChecks(root: string, env: Record<string, string>, steps: Step[], states: State[], n: number) {
  const scored: Scored[] = [];
  for (const [i, s] of steps.entries()) {
    const path = join(root, s.file);
    const input = (event: string) =>
      JSON.stringify({
        session_id: `accuracy-${n}`,
        hook_event_name: event,
        cwd: root,
        ...(s.before === null
          ? { tool_name: 'Write', tool_input: { file_path: path, content: s.after } }
          : { tool_name: 'Edit', tool_input: { file_path: path, ...replacement(s.before, s.after ?? '') } }),
      });
    const pre = await runLspq(['hook', 'run', '--for', 'claude'], root, env, input('PreToolUse'));
    put(path, s.after);
    const post = await runLspq(['hook', 'run', '--for', 'claude'], root, env, input('PostToolUse'));
    scored.push({
      truth: introduced(states[i]!, states[i + 1]!),
      ...hookSaid(post),
      unchecked: new Set([...states[i]!.unchecked, ...states[i + 1]!.unchecked]),
      ...(post.exit !== 0 && post.exit !== 2 ? { couldNot: post.stderr.split('\n')[0] ?? '' } : {}),
      ms: pre.ms + post.ms,
      bytes: bytesOf(pre) + bytesOf(post),
    });
  }
  return scored;
}

interface Outcome {
  edit: Edit;
  /** Why it was not scored: git does not apply its diff. */
  skipped?: string;
  patch?: Scored;
  /** One per file written; none where the edit deletes a file (no agent's Edit or Write does). */
  hook?: Scored[];
  /** The checker once, on the edit's last state (the truth's own cost). */
  checkerMs: number;
}

async function measure(c: Case): Promise<Outcome[]> {
  const dir = join(WORK, `accuracy-${c.server.replace(/\W+/g, '-')}`);
  rmSync(dir, { recursive: true, force: true });
  for (const side of ['lspq', 'truth']) mkdirSync(join(dir, side), { recursive: true });
  const root = c.at(join(dir, 'lspq'));
  const scratch = c.at(join(dir, 'truth'));
  // Trusted, so the project's own TypeScript 7 answers, as bench/edit-check.ts's figures have it.
  const env = toolsEnv({
    LSPQ_SOCKET: join(mkdtempSync(join(tmpdir(), 'lspq-accuracy-')), 'daemon.sock'),
    LSPQ_TRUST: 'all',
  });
  const run = (args: string[], stdin?: string) => runLspq(args, root, env, stdin);
  const outcomes: Outcome[] = [];
  try {
    await run(['diag', '--all', '--fail-on', 'never']);
    const files = c.sources(git(root, 'ls-files').trim().split('\n'));
    const edits = await seededEdits(root, files, c.lang, run, SEED, EDITS);
    const clean = c.check(scratch);
    for (const [n, edit] of edits.entries()) {
      let truth: ReturnType<typeof truthOf>;
      try {
        truth = truthOf(c, scratch, edit, clean);
      } catch (err) {
        outcomes.push({ edit, skipped: (err as Error).message.split('\n')[0]!, checkerMs: 0 });
        continue;
      }
      const { steps, states, checkerMs } = truth;
      const patchFile = join(dir, 'edit.patch');
      writeFileSync(patchFile, edit.patch);
      const asked = await run(['diag', '--patch', patchFile, '--json', '--limit', '100000']);
      // Exit 1 is an answer (problems at --fail-on); 3 says it could not check whole, 2 that it was asked wrong.
      const answered = asked.exit === 0 || asked.exit === 1;
      const patch: Scored = {
        truth: introduced(clean, states[states.length - 1]!),
        said: answered ? patchSaid(asked) : new Map(),
        cut: 0,
        unchecked: new Set([...clean.unchecked, ...states[states.length - 1]!.unchecked]),
        ...(answered ? {} : { couldNot: asked.stderr.split('\n')[0] ?? '' }),
        ms: asked.ms,
        bytes: bytesOf(asked),
      };
      if (steps.some((s) => s.after === null)) {
        outcomes.push({ edit, patch, checkerMs });
        continue;
      }
      try {
        outcomes.push({ edit, patch, hook: await hookChecks(root, env, steps, states, n), checkerMs });
      } finally {
        restore(root);
        // The daemon sees the files back and diagnosed, as an agent's diag of them would leave it.
        const back = steps.filter((s) => s.before !== null).map((s) => s.file);
        await run(['diag', ...back, '--fail-on', 'never']);
      }
    }
  } finally {
    await run(['daemon', 'stop']);
  }
  return outcomes;
}

/** A few places with what was said there: enough to find the check that went wrong. */
function some(places: string[], said: Map<string, string>): string {
  const shown = places.slice(0, 3).map((p) => `${p} (${said.get(p)})`);
  return `${shown.join('; ')}${places.length > 3 ? `; and ${places.length - 3} more` : ''}`;
}

function report(c: Case, outcomes: Outcome[]): { rows: string[][]; notes: string[] } {
  const patched = outcomes.flatMap((o) => (o.patch ? [o.patch] : []));
  const hooked = outcomes.flatMap((o) => (o.hook ? [o.hook] : []));
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const row = (check: string, edits: Scored[][]) => {
    const all = edits.flat();
    return [
      c.project,
      check,
      String(edits.length),
      String(all.length),
      String(sum(all.map((s) => s.truth.size))),
      String(edits.filter((e) => e.every(exact)).length),
      String(sum(all.map((s) => falseAlarms(s).length))),
      String(sum(all.map(missed))),
      String(sum(all.map((s) => s.cut))),
      String(sum(all.map((s) => unverifiable(s).length))),
      String(all.filter((s) => s.couldNot).length),
      fmt(median(edits.map((e) => sum(e.map((s) => s.ms))))),
      String(sum(all.map((s) => s.bytes))),
    ];
  };
  const scored = outcomes.filter((o) => o.patch);
  const rows = [
    row(
      '`diag --patch P --json`',
      patched.map((s) => [s]),
    ),
    row('`hook run --for claude`', hooked),
    [
      c.project,
      `${c.checker} (the truth), once`,
      String(scored.length),
      String(scored.length),
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      fmt(median(scored.map((o) => o.checkerMs))),
      '',
    ],
  ];
  const notes: string[] = [];
  const say = (what: string, s: Scored) => {
    if (s.couldNot) notes.push(`${what}: could not say: ${s.couldNot}`);
    const alarms = falseAlarms(s);
    const lost = unlisted(s);
    if (alarms.length) notes.push(`${what}: false alarms ${some(alarms, s.said)}`);
    if (missed(s)) notes.push(`${what}: missed ${missed(s)} of ${some(lost, s.truth)}`);
  };
  for (const o of outcomes) {
    if (o.skipped) notes.push(`${c.project}, ${o.edit.what}: not scored, ${o.skipped}`);
    if (o.patch) say(`${c.project}, ${o.edit.what}, diag --patch`, o.patch);
    if (o.patch && !o.hook) notes.push(`${c.project}, ${o.edit.what}: the hook not scored (the edit deletes a file)`);
    for (const [i, s] of (o.hook ?? []).entries())
      say(`${c.project}, ${o.edit.what}, hook after write ${i + 1} of ${o.hook!.length}`, s);
  }
  return { rows, notes };
}

const only = process.env.BENCH_PROJECTS?.split(',');
const rows: string[][] = [];
const notes: string[] = [];
const kinds: string[] = [];
for (const c of CASES) {
  if (only && !only.some((o) => c.project.startsWith(o))) continue;
  const outcomes = await measure(c);
  const r = report(c, outcomes);
  rows.push(...r.rows);
  notes.push(...r.notes);
  const count = (k: Edit['kind']) => outcomes.filter((o) => o.edit.kind === k).length;
  kinds.push(
    `${c.project} (${c.server}): ${(['rename', 'action', 'signature', 'unexport'] as const).map((k) => `${count(k)} ${k}`).join(', ')}`,
  );
}
console.log(
  table(
    [
      'project',
      'check',
      'edits',
      'checks',
      'places broken (truth)',
      'exact edits',
      'false alarms',
      'broken places missed',
      'told by count only',
      'said where the checker could not look',
      'could not say',
      'median ms per edit',
      'output bytes, all edits',
    ],
    rows,
  ),
);
console.log(
  [
    '',
    `${EDITS} seeded edits (seed ${SEED}) per project: ${kinds.join('; ')}; ${new Date().toISOString().slice(0, 10)}.`,
    "cli-lsp-client and agent-lsp have no row: npm answers 404 for both on this machine (agent-lsp's PyPI wheel is not driven here).",
    '',
    ...(notes.length ? notes.map((n) => `- ${n}`) : ['Every check exact.']),
  ].join('\n'),
);
