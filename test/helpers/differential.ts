/**
 * The differential harness: one question asked of two views of the same
 * code, whose answers must agree. Symbols are chosen by a fixed seed from
 * a real project's files (their outline's functions, methods, classes and
 * types), and for each the references are compared:
 * - cold against warm: a fresh daemon's answer against the same server
 *   asked again once everything was asked (a restart every few symbols, so
 *   several answers are a server's first);
 * - index against server: `--index-only` against `--no-index`;
 * - server against server: two servers of one language (`--server`);
 * - staged against a checkout: `diag --staged --all` against `diag --all`
 *   in a clone holding the staged tree.
 * Used by the suite (a small sample) and by bench/differential.ts (the
 * full run, reported in docs/benchmarks.md).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { capture, git, lspqArgv } from './lspq';
import { seeded } from './seeded-random';

/** A place as a comparable key. */
type Key = string;

export interface Target {
  /** FILE:LINE:COL, from the project's root. */
  at: string;
  name: string;
}

export interface Difference {
  target: Target;
  /** Places only the first view gave, and only the second. */
  onlyFirst: Key[];
  onlySecond: Key[];
  /** A view that failed (exit 2 or 3) instead of answering. */
  failed?: string;
}

export interface Comparison {
  what: string;
  asked: number;
  agreed: number;
  /**
   * Answers where lspq said, with exit 3, what the answer may lack (an
   * indexer's known gap, a build not asked), or two servers differ in a way
   * docs/servers.md documents.
   */
  named: Difference[];
  /** The rest: a difference lspq did not name, a bug to fix. */
  differences: Difference[];
}

/** A view that failed saying what its answer may lack: lspq named the gap, as the contract asks. */
const NAMES_ITS_GAP = /may be incomplete|not searched|the answer may lack|are incomplete: \S+ left out/;

/** Runs lspq with its own daemon at `socket`, the given environment, in `cwd`. */
export type Ask = (args: string[]) => Promise<{ stdout: string; stderr: string; exit: number }>;

export function asker(cwd: string, env: Record<string, string>): Ask {
  return (args) => capture([...lspqArgv(), ...args], cwd, env);
}

const KINDS = new Set(['function', 'method', 'class', 'interface', 'struct', 'constant', 'enum']);

interface OutlineSymbol {
  name: string;
  kind: string;
  line: number;
  column: number;
  children?: OutlineSymbol[];
}

/**
 * `count` symbols of the project chosen by `seed`: files of `extensions`
 * git lists, shuffled, each file's outline walked, its symbols of the
 * kinds that have references shuffled too.
 */
export async function chooseTargets(
  ask: Ask,
  root: string,
  extensions: string[],
  count: number,
  seed: number,
  server?: string,
): Promise<Target[]> {
  const random = seeded(seed);
  const shuffle = <T>(xs: T[]) => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const files = git(root, 'ls-files', '-z')
    .split('\0')
    .filter((f) => extensions.some((e) => f.endsWith(e)) && !/(^|\/)(tests?|docs?|examples?)\//.test(f));
  const targets: Target[] = [];
  for (const file of shuffle(files.sort())) {
    if (targets.length >= count) break;
    const r = await ask(['symbols', file, '--json', ...(server ? ['--server', server] : [])]);
    if (r.exit !== 0) continue;
    const flat: OutlineSymbol[] = [];
    const walk = (list: OutlineSymbol[]) => {
      for (const s of list) {
        if (KINDS.has(s.kind) && /^[\p{L}_][\p{L}\p{N}_]*$/u.test(s.name) && s.name.length > 2) flat.push(s);
        walk(s.children ?? []);
      }
    };
    walk((JSON.parse(r.stdout) as { symbols: OutlineSymbol[] }).symbols);
    const chosen = shuffle(flat)[0];
    if (chosen) targets.push({ at: `${file}:${chosen.line}:${chosen.column}`, name: chosen.name });
  }
  return targets;
}

/** Words of code that are no name: the languages' keywords the occurrence draw meets. */
const KEYWORDS = new Set(
  (
    'as async await break case catch class const continue default delete do else enum export extends false ' +
    'finally for from function if implements import in instanceof interface let new null of return static super ' +
    'switch this throw true try type typeof undefined var void while yield any boolean never number object string ' +
    'unknown readonly keyof declare chan defer fallthrough func go goto map package range select struct nil iota ' +
    'bool byte error int int64 uint uintptr float64 rune def self cls None True False elif lambda pass raise ' +
    'with assert global nonlocal not and or is del str dict list tuple bytes float fn impl pub mut use crate ' +
    'Self mod match where trait dyn move ref unsafe loop extern usize isize u8 u32 u64 i32 i64 Option Some Ok Err'
  ).split(' '),
);

/**
 * `count` places of the project chosen by `seed` where code writes a name
 * (a local, a parameter, a member, an import, a type alias: any word that
 * is no keyword, outside comments and strings as far as a line shows),
 * one per file in a shuffled order of git's files, each kept where the
 * view holds a symbol there (`def` with `keep` answers: `--index-only` by
 * default, for which the index must be built first): so every kind of
 * occurrence is drawn, not declarations alone.
 */
export async function chooseOccurrences(
  ask: Ask,
  root: string,
  extensions: string[],
  count: number,
  seed: number,
  keep: string[] = ['--index-only'],
): Promise<Target[]> {
  const random = seeded(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const files = git(root, 'ls-files', '-z')
    .split('\0')
    .filter((f) => extensions.some((e) => f.endsWith(e)) && !/(^|\/)(tests?|docs?|examples?)\//.test(f))
    .sort();
  const python = extensions.includes('.py');
  const targets: Target[] = [];
  for (let round = 0; round < 4 && targets.length < count; round++)
    for (const file of files.map((f) => ({ f, r: random() })).sort((a, b) => a.r - b.r)) {
      if (targets.length >= count) break;
      const lines = readFileSync(join(root, file.f), 'utf8').split('\n');
      const words = lines.flatMap((text, i) => {
        // What a line shows of code: its strings and a trailing or whole-line comment cut.
        const code = text
          .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""')
          .replace(python ? /#.*$/ : /\/\/.*$|^\s*\*.*$|\/\*.*$/, '');
        return [...code.matchAll(/[\p{L}_$][\p{L}\p{N}_$]*/gu)]
          .filter((m) => !KEYWORDS.has(m[0]) && m[0].length > 1 && m.index !== undefined)
          .map((m) => ({ line: i + 1, column: [...code.slice(0, m.index)].length + 1, name: m[0] }));
      });
      const word = pick(words);
      if (!word) continue;
      const at = `${file.f}:${word.line}:${word.column}`;
      if (targets.some((t) => t.at === at)) continue;
      if ((await ask(['def', at, ...keep])).exit === 0) targets.push({ at, name: word.name });
    }
  return targets;
}

/** A refs answer as a set of places (`withIn`: each with the symbol it sits in), or why it failed. */
async function placesOf(
  ask: Ask,
  target: Target,
  extra: string[],
  withIn = false,
): Promise<{ keys: Key[] } | { failed: string }> {
  const r = await ask(['refs', target.at, '--json', '--limit', '100000', '--timeout', '120', ...extra]);
  if (r.exit >= 2) return { failed: `exit ${r.exit}: ${r.stderr.trim().split('\n').pop() ?? ''}` };
  if (r.exit === 1) return { keys: [] };
  const answer = JSON.parse(r.stdout) as {
    locations: { path: string; line: number; column: number; in?: { name: string } }[];
  };
  const key = (l: (typeof answer.locations)[number]) =>
    `${l.path}:${l.line}:${l.column}${withIn ? ` in ${l.in?.name ?? '-'}` : ''}`;
  return { keys: answer.locations.map(key).sort() };
}

/** Compares the two views' answers for each target. */
export async function compare(
  what: string,
  targets: Target[],
  first: (t: Target) => Promise<{ keys: Key[] } | { failed: string }>,
  second: (t: Target) => Promise<{ keys: Key[] } | { failed: string }>,
  known?: (d: Difference) => string | undefined,
): Promise<Comparison> {
  const differences: Difference[] = [];
  const named: Difference[] = [];
  for (const target of targets) {
    const [a, b] = [await first(target), await second(target)];
    if ('failed' in a || 'failed' in b) {
      const failed = 'failed' in a ? `first: ${a.failed}` : `second: ${(b as { failed: string }).failed}`;
      (NAMES_ITS_GAP.test(failed) ? named : differences).push({ target, onlyFirst: [], onlySecond: [], failed });
      continue;
    }
    const onlyFirst = a.keys.filter((k) => !b.keys.includes(k));
    const onlySecond = b.keys.filter((k) => !a.keys.includes(k));
    if (!onlyFirst.length && !onlySecond.length) continue;
    const d = { target, onlyFirst, onlySecond };
    const why = known?.(d);
    if (why) named.push({ ...d, failed: why });
    else differences.push(d);
  }
  return {
    what,
    asked: targets.length,
    agreed: targets.length - differences.length - named.length,
    named,
    differences,
  };
}

/** An environment with a daemon of its own (and its own trust and caches), removed by `done`. */
export function ownDaemon(base: Record<string, string>): { env: Record<string, string>; done: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'lspq-diff-'));
  const env = {
    ...base,
    LSPQ_SOCKET: join(dir, 'daemon.sock'),
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_CACHE_HOME: join(dir, 'cache'),
  };
  return {
    env,
    done: async () => {
      await capture([...lspqArgv(), 'daemon', 'stop'], tmpdir(), env);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Cold against warm: each target asked of a daemon restarted every
 * `restartEvery` targets (so those answers are a server's first), then all
 * asked again of the warm one.
 */
export async function coldAgainstWarm(
  root: string,
  base: Record<string, string>,
  targets: Target[],
  restartEvery: number,
  extra: string[] = [],
): Promise<Comparison> {
  const daemon = ownDaemon(base);
  const ask = asker(root, daemon.env);
  try {
    const cold = new Map<string, Awaited<ReturnType<typeof placesOf>>>();
    for (const [i, t] of targets.entries()) {
      if (i > 0 && i % restartEvery === 0) await ask(['daemon', 'stop']);
      cold.set(t.at, await placesOf(ask, t, extra));
    }
    return await compare(
      'cold against warm',
      targets,
      async (t) => cold.get(t.at)!,
      (t) => placesOf(ask, t, extra),
    );
  } finally {
    await daemon.done();
  }
}

/** Two views through one warm daemon: extra arguments for each (`--server A` against `--server B`, an index against none). */
export async function twoViews(
  what: string,
  root: string,
  base: Record<string, string>,
  targets: Target[],
  firstArgs: string[],
  secondArgs: string[],
  before?: (ask: Ask) => Promise<void>,
  known?: (d: Difference) => string | undefined,
  withIn = false,
): Promise<Comparison> {
  const daemon = ownDaemon(base);
  const ask = asker(root, daemon.env);
  try {
    await before?.(ask);
    return await compare(
      what,
      targets,
      (t) => placesOf(ask, t, firstArgs, withIn),
      (t) => placesOf(ask, t, secondArgs, withIn),
      known,
    );
  } finally {
    await daemon.done();
  }
}

/**
 * Untrusted against trusted: the same targets asked of a daemon that trusts
 * everything and of one that trusts nothing, its workspace's programs run
 * in `box` (bubblewrap or Landlock): contained, nothing is left out, so the
 * answers are the same.
 */
export async function untrustedAgainstTrusted(
  root: string,
  base: Record<string, string>,
  targets: Target[],
  box: 'bubblewrap' | 'landlock',
  extra: string[] = [],
): Promise<Comparison> {
  const trusted = ownDaemon({ ...base, LSPQ_TRUST: 'all' });
  const { LSPQ_TRUST: _all, ...rest } = base;
  const untrusted = ownDaemon({ ...rest, LSPQ_BOX: box });
  try {
    const mine = asker(root, trusted.env);
    const theirs = asker(root, untrusted.env);
    return await compare(
      `untrusted in ${box} against trusted`,
      targets,
      (t) => placesOf(mine, t, extra),
      (t) => placesOf(theirs, t, extra),
    );
  } finally {
    await trusted.done();
    await untrusted.done();
  }
}

/** A diagnostics answer as a set of `path:line:col: severity: message` keys, or why it failed. */
async function problemsOf(ask: Ask, args: string[]): Promise<{ keys: Key[] } | { failed: string }> {
  const r = await ask(['diag', ...args, '--json', '--severity', 'hint', '--timeout', '600']);
  if (r.exit >= 2) return { failed: `exit ${r.exit}: ${r.stderr.trim().split('\n').pop() ?? ''}` };
  const answer = JSON.parse(r.stdout) as {
    diagnostics: { path: string; line: number; column: number; severity: string; message: string }[];
  };
  return { keys: answer.diagnostics.map((d) => `${d.path}:${d.line}:${d.column}: ${d.severity}: ${d.message}`).sort() };
}

/**
 * Staged against a checkout: for each target, its name renamed in the
 * staged text of its file (its uses elsewhere break) while the work tree
 * keeps the committed text there and holds an unstaged error in the next
 * target's file. Two questions, each against the same one asked in a clone
 * whose work tree is the staged tree: `diag --staged` (the staged files)
 * against `diag FILE`, and the pre-commit hook's `diag --staged --since HEAD
 * --all` against `diag --since HEAD --all`. A staged view that read the
 * disk would miss the broken uses, or show the unstaged error.
 */
export async function stagedAgainstCheckout(
  root: string,
  base: Record<string, string>,
  targets: Target[],
  extra: string[] = [],
): Promise<Comparison[]> {
  const daemon = ownDaemon(base);
  const ask = asker(root, daemon.env);
  // Beside the project: a clone finds what the project's folder does (the node_modules above it).
  const scratch = mkdtempSync(`${root}-staged-`);
  const answers = new Map<string, Awaited<ReturnType<typeof problemsOf>>>();
  const checkouts = new Map<string, string>();
  const file = (t: Target) => t.at.replace(/:\d+:\d+$/, '');
  const QUESTIONS = [
    { what: 'staged files against them in a checkout', staged: ['--staged'], checkout: (t: Target) => [file(t)] },
    {
      what: 'staged since HEAD, whole workspace, against a checkout',
      staged: ['--staged', '--since', 'HEAD', '--all'],
      checkout: () => ['--since', 'HEAD', '--all'],
    },
  ];
  try {
    for (const [i, t] of targets.entries()) {
      const [line, column] = t.at.split(':').slice(-2).map(Number) as [number, number];
      const committed = git(root, 'show', `HEAD:${file(t)}`);
      const lines = committed.split('\n');
      const at = lines[line - 1]!;
      const end = [...at].slice(0, column - 1).join('').length + t.name.length;
      lines[line - 1] = `${at.slice(0, end)}Staged${at.slice(end)}`;
      writeFileSync(join(root, file(t)), lines.join('\n'));
      git(root, 'add', file(t));
      writeFileSync(join(root, file(t)), committed);
      const next = file(targets[(i + 1) % targets.length]!);
      if (next !== file(t)) writeFileSync(join(root, next), `${git(root, 'show', `HEAD:${next}`)}\n)(}{ unstaged\n`);
      const checkout = join(scratch, String(i));
      git(scratch, 'clone', '-q', root, checkout);
      const patch = Bun.spawnSync(['git', 'diff', '--cached', '--binary'], { cwd: root }).stdout;
      Bun.spawnSync(['git', 'apply', '--index'], { cwd: checkout, stdin: patch });
      checkouts.set(t.at, checkout);
      for (const [q, question] of QUESTIONS.entries())
        answers.set(`${q} ${t.at}`, await problemsOf(ask, [...question.staged, ...extra]));
      git(root, 'reset', '-q', '--hard', 'HEAD');
    }
    const out: Comparison[] = [];
    for (const [q, question] of QUESTIONS.entries())
      out.push(
        await compare(
          question.what,
          targets,
          async (t) => answers.get(`${q} ${t.at}`)!,
          (t) => problemsOf(asker(checkouts.get(t.at)!, daemon.env), [...question.checkout(t), ...extra]),
        ),
      );
    return out;
  } finally {
    git(root, 'reset', '-q', '--hard', 'HEAD');
    await daemon.done();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A comparison as lines for a person: the figure, then each difference. */
export function report(name: string, c: Comparison): string {
  const gaps = c.named.length ? `, ${c.named.length} differ as documented or said what they may lack` : '';
  const lines = [`${name}: ${c.what}: ${c.agreed} of ${c.asked} agree${gaps}`];
  for (const d of c.differences) {
    const parts = [
      d.failed,
      d.onlyFirst.length
        ? `only first: ${d.onlyFirst.slice(0, 3).join(' ')}${d.onlyFirst.length > 3 ? ' ...' : ''}`
        : '',
      d.onlySecond.length
        ? `only second: ${d.onlySecond.slice(0, 3).join(' ')}${d.onlySecond.length > 3 ? ' ...' : ''}`
        : '',
    ].filter(Boolean);
    lines.push(`  ${d.target.at} (${d.target.name}): ${parts.join('; ')}`);
  }
  return lines.join('\n');
}

/** Known differences between two servers of one language, documented in docs/servers.md. */
export const KNOWN_BETWEEN_SERVERS: Record<string, (d: Difference) => string | undefined> = {
  'pyright against basedpyright': (d) =>
    (d.target.name === '__init__' || d.target.name === '__new__') && d.onlyFirst.length === 0
      ? "basedpyright counts a class's constructor calls as references of __init__ and __new__; pyright does not"
      : undefined,
  'typescript against typescript-language-server': (d) =>
    d.onlyFirst.length === 0 && d.onlySecond.every((k) => k.includes('/node_modules/@types/'))
      ? 'TypeScript 5 (under typescript-language-server) takes in every @types package above the project; TypeScript 7 only those its tsconfig names'
      : undefined,
};
