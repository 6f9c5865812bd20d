/**
 * Go's other build configurations. gopls sees one: this platform's, with
 * the build tags the environment sets and cgo as it is, so `b_windows.go`
 * and files under `//go:build integration` or `!cgo` are outside every
 * answer it gives here. For a name, the files that write it and that this
 * build leaves out are found (by git grep, or a walk), and each is given a
 * configuration that compiles it (GOOS, GOARCH, CGO_ENABLED, tags), so the
 * question can be asked again of a gopls started for it. Which files a
 * configuration compiles is asked of `go list` (what gopls itself loads
 * by); the evaluator here proposes configurations and answers where the go
 * command cannot. A file no configuration tried compiles is said
 * unsearched, never silently left out.
 */
import { boxed } from '../box/command';
import { Trust } from '../trust/decision';
import { readWorkspaceFile, readWorkspaceText } from '../common/file-size';
import type { LeftOutFile } from '../scip/index-table';
import { basename, dirname, relative } from 'node:path';
import {
  type Build,
  buildFor,
  buildLine,
  builtUnder,
  constrained,
  currentBuild,
  envFor,
  sameBuild,
  tagsOf,
} from './go-constraints';
import { realOf } from '../common/real-path';
import { dropOldest } from '../common/bounded-cache';
import * as z from 'zod/mini';
import { findWord } from '../common/target';
import { probeEnv, spawnGit } from '../git/run';
import type { DiskView } from '../lsp/file-events';
import { fileKinds, kindAt, syntaxOf } from '../lsp/lexical';

export { type Build, buildLabel, envFor } from './go-constraints';

/** The Go files under `root` that write `name` as a word (git's index where it is one, else none known). */
async function filesNaming(root: string, name: string, env: Record<string, string>): Promise<string[] | undefined> {
  // --untracked: a file not yet added is part of the build as much as a committed one.
  let out = '';
  let exit: number;
  try {
    // -z: a name that is not ASCII (ü_windows.go) comes back as it is, not quoted.
    ({ stdout: out, exit } = await spawnGit(['grep', '--untracked', '-z', '-l', '-w', '-F', '-e', name, '--', '*.go'], {
      cwd: root,
      env: probeEnv(env),
      stderr: 'pipe',
      pathspecs: 'git', // the one pathspec is lspq's own glob
    }));
  } catch {
    return undefined; // git cannot start
  }
  // 1: nothing matched; anything else: not a repository (or git failed), so no list.
  if (exit === 1) return [];
  if (exit !== 0) return undefined;
  return out
    .split('\0')
    .filter(Boolean)
    .map((p) => `${root}/${p}`);
}

/** Every Go file under `root` a build could take: git's (tracked, and untracked but not ignored) in a checkout. */
async function goFiles(root: string, env: Record<string, string>): Promise<string[] | undefined> {
  try {
    const { stdout, exit } = await spawnGit(
      ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.go'],
      {
        cwd: root,
        env: probeEnv(env),
        stderr: 'pipe',
        pathspecs: 'git', // the one pathspec is lspq's own glob
      },
    );
    if (exit !== 0) return undefined;
    return [...new Set(stdout.split('\0').filter(Boolean))].map((p) => `${root}/${p}`);
  } catch {
    return undefined; // git cannot start
  }
}

/** A file whose name, build line or cgo decides whether a build compiles it, and that some build can. */
function mayBeLeftOut(path: string, text: string): boolean {
  // A `//go:build ignore` file is a program of its own (go run gen.go), in no build of the package.
  return !/\bignore\b/.test(buildLine(text) ?? '') && constrained(path, text);
}

/** Go identifiers, as written: the words a left-out file is found by. */
const WORDS = /[\p{L}_][\p{L}\p{N}_]*/gu;

/**
 * The Go files under `root` that the build an index was made with left out
 * (not among `indexed`: scip-go indexes one configuration) by their names,
 * build lines or cgo, each with every word it writes: kept in the index's
 * table, so a question the index answers alone names those that write its
 * name without reading the tree (GOROOT/src: 6,726 files read, 2.2 s of a
 * first answer). `walk` lists the files where git cannot.
 */
export async function leftOutByBuild(
  root: string,
  indexed: ReadonlySet<string>,
  env: Record<string, string>,
  walk: () => Promise<string[]>,
): Promise<LeftOutFile[]> {
  const files = (await goFiles(root, env)) ?? (await walk()).filter((p) => p.endsWith('.go'));
  const out: LeftOutFile[] = [];
  for (const path of files) {
    if (indexed.has(path)) continue;
    const got = readWorkspaceFile(path, 'source', { quietPastCap: true });
    if (!got.read) continue;
    const text = got.bytes.toString('utf8');
    if (!mayBeLeftOut(path, text)) continue;
    out.push({ path, size: got.stats.size, mtimeMs: got.stats.mtimeMs, words: codeWords(path, text) });
  }
  return out;
}

/** The words `text` writes in code (not only in comments or strings), each once. */
function codeWords(path: string, text: string): string[] {
  const syntax = syntaxOf(path);
  if (!syntax) return [...new Set(text.match(WORDS) ?? [])];
  const kinds = fileKinds(text, syntax);
  const words = new Set<string>();
  for (const [i, line] of text.split('\n').entries()) {
    const lineKinds = kinds[i] ?? [];
    for (const m of line.matchAll(WORDS)) if ((lineKinds[m.index] ?? 'code') === 'code') words.add(m[0]);
  }
  return [...words];
}

/** Of the files an index's build left out that changed since it was made, those that write `name` in code now. */
export function writingLeftOut(candidates: string[], name: string): string[] {
  return candidates.filter((path) => {
    const text = readWorkspaceText(path, 'source', { quietPastCap: true });
    return text !== undefined && mayBeLeftOut(path, text) && namesInCode(path, text, name);
  });
}

/** Whether `text` writes `name` in code (not only in a comment or a string). */
function namesInCode(path: string, text: string, name: string): boolean {
  const syntax = syntaxOf(path);
  return text
    .split('\n')
    .some(
      (line, i) =>
        line.includes(name) &&
        findWord(line, name).some((at) => !syntax || kindAt(text, i + 1, at + 1, syntax) === 'code'),
    );
}

export interface OtherBuilds {
  /** Each configuration to ask again, with the files it compiles that this one does not. */
  builds: { build: Build; files: string[] }[];
  /** Files that write the name and that no configuration tried compiles. */
  unsearched: string[];
}

/**
 * The files that write `name` in code, that the build `here` leaves out,
 * grouped by a configuration that compiles each. `files` lists the Go
 * files to look at where git cannot (a walk of the root).
 */
export async function otherBuilds(
  root: string,
  name: string,
  env: Record<string, string>,
  walk: () => Promise<string[]>,
  disk?: DiskView,
): Promise<OtherBuilds> {
  // Asked again only when something under the root changed since (the daemon's watch says): a warm
  // question pays a map lookup, not a git grep.
  const key = JSON.stringify([root, name, env.GOOS, env.GOARCH, env.GOFLAGS, env.CGO_ENABLED, env.CC, env.PATH]);
  const known = remembered.get(key);
  // Every event queued so far read first: the check below sees each change made before this question.
  const mark = disk?.markNow();
  const since = disk?.watchedSince(root);
  const unchanged = disk && known && since !== undefined && since <= known.mark;
  if (unchanged && disk.changesSince(root, known.mark)?.length === 0) return known.answer;
  const answer = await search(root, name, env, walk);
  if (mark !== undefined) {
    if (remembered.size >= REMEMBERED_MAX) dropOldest(remembered);
    remembered.set(key, { mark, answer });
  }
  return answer;
}

/** Answers by root, name and build, with the watch's mark they were found at. */
const remembered = new Map<string, { mark: number; answer: OtherBuilds }>();
const REMEMBERED_MAX = 256;

async function search(
  root: string,
  name: string,
  env: Record<string, string>,
  walk: () => Promise<string[]>,
): Promise<OtherBuilds> {
  const candidates = (await filesNaming(root, name, env)) ?? (await walk()).filter((p) => p.endsWith('.go'));
  // Only a file whose name, build line or cgo decides whether it is compiled can be left out of a build.
  const looked: { path: string; text: string }[] = [];
  for (const path of candidates) {
    const text = readWorkspaceText(path, 'source', { quietPastCap: true });
    if (text === undefined) continue;
    if (mayBeLeftOut(path, text) && namesInCode(path, text, name)) looked.push({ path, text });
  }
  if (looked.length === 0) return { builds: [], unsearched: [] };
  const dirs = [...new Set(looked.map((f) => dirname(f.path)))];
  // Go's own word where it can give it (go env, go list), the evaluator's where it cannot.
  const [here, compiledHere] = await Promise.all([goEnv(root, env), compiledFiles(root, dirs, env)]);
  const builds: { build: Build; files: string[] }[] = [];
  const unsearched: string[] = [];
  for (const { path, text } of looked) {
    if (compiles(compiledHere, path) ?? builtUnder(path, text, here)) continue;
    const build = buildFor(path, text, here);
    if (!build) {
      unsearched.push(path);
      continue;
    }
    const group = builds.find((b) => sameBuild(b.build, build));
    if (group) group.files.push(path);
    else builds.push({ build, files: [path] });
  }
  // Each configuration checked by Go: a file it does not compile there is named unsearched, never left out.
  const checked = await Promise.all(
    builds.map(async ({ build, files }) => {
      const compiled = await compiledFiles(root, [...new Set(files.map((f) => dirname(f)))], envFor(env, build));
      const kept = files.filter((f) => compiles(compiled, f) ?? true);
      unsearched.push(...files.filter((f) => !kept.includes(f)));
      return { build, files: kept };
    }),
  );
  return { builds: checked.filter((b) => b.files.length > 0), unsearched };
}

/** Asks of the go command: at most this long, or its answer is done without. */
const GO_COMMAND_MS = 20_000;

/**
 * The go command's output for `args` in `cwd`, or undefined where it
 * cannot run or fails. Never a download: GOPROXY=off (an answer about the
 * files of a folder needs no module), and the toolchain the caller has.
 */
async function goCommand(args: string[], cwd: string, env: Record<string, string>): Promise<string | undefined> {
  const go = Bun.which('go', { PATH: env.PATH ?? '' });
  if (!go) return undefined;
  const own = { ...env, GOPROXY: 'off', GOTOOLCHAIN: 'local' };
  // A module not trusted: go reads its go.mod and go.work in the box, as gopls does.
  const box = new Trust(env).boxFor([cwd, go]);
  const run = box
    ? boxed([go, ...args], box, { purpose: 'go', root: cwd, binary: go, cwd, env: own })
    : { argv: [go, ...args], env: own };
  try {
    const proc = Bun.spawn(run.argv, {
      cwd,
      env: run.env,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'ignore',
      timeout: GO_COMMAND_MS,
    });
    const [out, exit] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return exit === 0 ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The configuration the environment gives, as the go command reads it (go.env, GOENV and all), else as lspq does. */
async function goEnv(root: string, env: Record<string, string>): Promise<Build> {
  const guess = currentBuild(env);
  const out = await goCommand(['env', '-json', 'GOOS', 'GOARCH', 'CGO_ENABLED', 'GOFLAGS'], root, env);
  if (out === undefined) return guess;
  try {
    const v = GoEnvShape.parse(JSON.parse(out));
    return {
      goos: v.GOOS || guess.goos,
      goarch: v.GOARCH || guess.goarch,
      cgo: v.CGO_ENABLED === '1',
      tags: tagsOf(v.GOFLAGS),
    };
  } catch {
    return guess;
  }
}
const GoEnvShape = z.object({
  GOOS: z.optional(z.string()),
  GOARCH: z.optional(z.string()),
  CGO_ENABLED: z.optional(z.string()),
  GOFLAGS: z.optional(z.string()),
});

/** What `go list -json` says of a package folder: the files it compiles, tests included, and those it leaves out. */
const ListedShape = z.object({
  Dir: z.string(),
  GoFiles: z.optional(z.array(z.string())),
  CgoFiles: z.optional(z.array(z.string())),
  TestGoFiles: z.optional(z.array(z.string())),
  XTestGoFiles: z.optional(z.array(z.string())),
  IgnoredGoFiles: z.optional(z.array(z.string())),
});

/** Whether go list says the file is compiled; undefined where it said nothing of its folder. */
function compiles(compiled: Map<string, Set<string>> | undefined, path: string): boolean | undefined {
  return compiled?.get(realOf(dirname(path)))?.has(basename(path));
}

/**
 * The names of the Go files each of `dirs` compiles under the configuration
 * `env` sets, by folder (its real path), as `go list` says (what gopls
 * loads its packages by); a folder it could not describe is missing (the
 * caller's evaluator decides). Undefined where the go command cannot answer.
 */
async function compiledFiles(
  root: string,
  dirs: string[],
  env: Record<string, string>,
): Promise<Map<string, Set<string>> | undefined> {
  const patterns = dirs.map((d) => (d === root ? '.' : `./${relative(root, d)}`));
  const fields = 'Dir,GoFiles,CgoFiles,TestGoFiles,XTestGoFiles,IgnoredGoFiles';
  const out = await goCommand(['list', '-e', `-json=${fields}`, '--', ...patterns], root, env);
  if (out === undefined) return undefined;
  const byDir = new Map<string, Set<string>>();
  // One JSON object per package, one after the other.
  for (const chunk of out.split(/(?<=^\})\n(?=\{)/m)) {
    let listed: z.infer<typeof ListedShape>;
    try {
      listed = ListedShape.parse(JSON.parse(chunk));
    } catch {
      continue;
    }
    const files = [listed.GoFiles, listed.CgoFiles, listed.TestGoFiles, listed.XTestGoFiles].flatMap((l) => l ?? []);
    // A folder go list found no Go files in (outside the module, say): not described.
    if (files.length === 0 && !listed.IgnoredGoFiles?.length) continue;
    byDir.set(realOf(listed.Dir), new Set(files));
  }
  return byDir;
}
