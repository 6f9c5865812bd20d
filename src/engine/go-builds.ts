/**
 * Go's other build configurations. gopls sees one: this platform's, with
 * the build tags the environment sets, so `b_windows.go` and a file under
 * `//go:build integration` are outside every answer it gives here. For a
 * name, the files that write it and that this build leaves out are found
 * (by git grep, or a walk), and each is given a configuration that
 * compiles it (GOOS, GOARCH, tags), so the question can be asked again of
 * a gopls started for it. A file no configuration tried compiles is said
 * unsearched, never silently left out.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { findWord } from '../common/target';
import { probeEnv, spawnGit } from '../git/run';
import type { DiskView } from '../lsp/file-events';
import { kindAt, syntaxOf } from '../lsp/lexical';

const GOOS = [
  'linux',
  'windows',
  'darwin',
  'freebsd',
  'openbsd',
  'netbsd',
  'dragonfly',
  'solaris',
  'illumos',
  'aix',
  'android',
  'ios',
  'plan9',
  'js',
  'wasip1',
  'hurd',
  'zos',
] as const;
const GOARCH = [
  'amd64',
  'arm64',
  '386',
  'arm',
  'wasm',
  'ppc64le',
  'ppc64',
  's390x',
  'riscv64',
  'mips64',
  'mips',
  'loong64',
];
/** Every GOOS but these is a "unix" one (go/build's unixOS list). */
const UNIX = new Set<string>(GOOS.filter((os) => !['windows', 'plan9', 'js', 'wasip1', 'zos'].includes(os)));

/** A build configuration: the target platform and the tags set. */
export interface Build {
  goos: string;
  goarch: string;
  tags: string[];
}

export const sameBuild = (a: Build, b: Build) =>
  a.goos === b.goos && a.goarch === b.goarch && a.tags.join(',') === b.tags.join(',');

/** The configuration the environment gives: GOOS, GOARCH and GOFLAGS's -tags, else this machine's. */
export function currentBuild(env: Record<string, string | undefined>): Build {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const tags =
    /(?:^|\s)-tags[= ]([\w,.-]+)/
      .exec(env.GOFLAGS ?? '')?.[1]
      ?.split(',')
      .filter(Boolean) ?? [];
  return { goos: env.GOOS || os, goarch: env.GOARCH || arch, tags: tags.sort() };
}

/** What the file's name says (`x_windows.go`, `x_linux_arm64_test.go`), if anything. Pure. */
export function nameConstraint(path: string): { goos?: string; goarch?: string } {
  const parts = basename(path)
    .replace(/\.go$/, '')
    .replace(/_test$/, '')
    .split('_');
  if (parts.length < 2) return {};
  const last = parts.at(-1)!;
  const before = parts.length >= 3 ? parts.at(-2)! : undefined;
  if (before && (GOOS as readonly string[]).includes(before) && GOARCH.includes(last))
    return { goos: before, goarch: last };
  if ((GOOS as readonly string[]).includes(last)) return { goos: last };
  if (GOARCH.includes(last)) return { goarch: last };
  return {};
}

/** The `//go:build` expression above the package clause, if any. Pure. */
export function buildLine(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.startsWith('//go:build ')) return t.slice('//go:build '.length).trim();
    if (t.startsWith('package ')) return undefined;
  }
  return undefined;
}

/** Whether a `//go:build` expression holds under `build`. Pure. */
export function satisfies(expression: string, build: Build): boolean {
  const tokens = expression.match(/[\w.]+|&&|\|\||!|\(|\)/g) ?? [];
  let i = 0;
  const has = (tag: string) =>
    tag === build.goos ||
    tag === build.goarch ||
    build.tags.includes(tag) ||
    (tag === 'unix' && UNIX.has(build.goos)) ||
    tag === 'gc' ||
    /^go1\.\d+$/.test(tag);
  const primary = (): boolean => {
    const t = tokens[i++];
    if (t === '!') return !primary();
    if (t === '(') {
      const v = or();
      i++; // ')'
      return v;
    }
    return t !== undefined && has(t);
  };
  const and = (): boolean => {
    let v = primary();
    while (tokens[i] === '&&') {
      i++;
      v = primary() && v;
    }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (tokens[i] === '||') {
      i++;
      v = and() || v;
    }
    return v;
  };
  return or();
}

/** Whether a file of `text` at `path` is compiled under `build`. Pure. */
export function builtUnder(path: string, text: string, build: Build): boolean {
  const named = nameConstraint(path);
  if (named.goos && named.goos !== build.goos && !(named.goos === 'linux' && build.goos === 'android')) return false;
  if (named.goarch && named.goarch !== build.goarch) return false;
  const line = buildLine(text);
  return line === undefined || satisfies(line, build);
}

/**
 * A configuration that compiles the file, nearest to `here` first (the
 * same platform with the file's tags, then each platform its name or
 * build line names); undefined when none tried does.
 */
export function buildFor(path: string, text: string, here: Build): Build | undefined {
  const named = nameConstraint(path);
  const words = (buildLine(text)?.match(/[\w.]+/g) ?? []).filter((w) => !/^go1\.\d+$/.test(w));
  const oses = [
    ...new Set([named.goos, ...words.filter((w) => (GOOS as readonly string[]).includes(w)), here.goos]),
  ].filter((o): o is string => o !== undefined);
  const arches = [...new Set([named.goarch, ...words.filter((w) => GOARCH.includes(w)), here.goarch, 'amd64'])].filter(
    (a): a is string => a !== undefined,
  );
  const custom = words.filter(
    (w) => !(GOOS as readonly string[]).includes(w) && !GOARCH.includes(w) && w !== 'unix' && w !== 'gc',
  );
  const tagSets = [here.tags, [...new Set([...here.tags, ...custom])].sort()];
  for (const tags of tagSets)
    for (const goos of oses)
      for (const goarch of arches) {
        const build = { goos, goarch, tags };
        if (builtUnder(path, text, build)) return build;
      }
  return undefined;
}

/** The environment a gopls for `build` runs with: the caller's, its platform and tags set. */
export function envFor(env: Record<string, string>, build: Build): Record<string, string> {
  const flags = (env.GOFLAGS ?? '').replace(/(?:^|\s)-tags[= ][\w,.-]+/, '').trim();
  const tags = build.tags.length ? `-tags=${build.tags.join(',')}` : '';
  const GOFLAGS = [flags, tags].filter(Boolean).join(' ');
  return { ...env, GOOS: build.goos, GOARCH: build.goarch, ...(GOFLAGS ? { GOFLAGS } : {}) };
}

export const buildLabel = (b: Build) =>
  `GOOS=${b.goos} GOARCH=${b.goarch}${b.tags.length ? ` -tags=${b.tags.join(',')}` : ''}`;

/** The Go files under `root` that write `name` as a word (git's index where it is one, else none known). */
async function filesNaming(root: string, name: string, env: Record<string, string>): Promise<string[] | undefined> {
  // --untracked: a file not yet added is part of the build as much as a committed one.
  let out = '';
  let exit: number;
  try {
    ({ stdout: out, exit } = await spawnGit(['grep', '--untracked', '-l', '-w', '-F', '-e', name, '--', '*.go'], {
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
    .split('\n')
    .filter(Boolean)
    .map((p) => `${root}/${p}`);
}

/** Whether `text` writes `name` in code (not only in a comment or a string). */
function namesInCode(path: string, text: string, name: string): boolean {
  const syntax = syntaxOf(path);
  return text
    .split('\n')
    .some((line, i) => findWord(line, name).some((at) => !syntax || kindAt(text, i + 1, at + 1, syntax) === 'code'));
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
  const key = JSON.stringify([root, name, env.GOOS, env.GOARCH, env.GOFLAGS]);
  const known = remembered.get(key);
  // Every event queued so far read first: the check below sees each change made before this question.
  const mark = disk?.markNow();
  const since = disk?.watchedSince(root);
  const unchanged = disk && known && since !== undefined && since <= known.mark;
  if (unchanged && disk.changesSince(root, known.mark)?.length === 0) return known.answer;
  const answer = await search(root, name, env, walk);
  if (mark !== undefined) {
    if (remembered.size >= REMEMBERED_MAX) remembered.delete(remembered.keys().next().value!);
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
  const here = currentBuild(env);
  const candidates = (await filesNaming(root, name, env)) ?? (await walk()).filter((p) => p.endsWith('.go'));
  const builds: { build: Build; files: string[] }[] = [];
  const unsearched: string[] = [];
  for (const path of candidates) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    // A `//go:build ignore` file is a program of its own (go run gen.go), in no build of the package.
    if (/\bignore\b/.test(buildLine(text) ?? '')) continue;
    if (builtUnder(path, text, here) || !namesInCode(path, text, name)) continue;
    const build = buildFor(path, text, here);
    if (!build) {
      unsearched.push(path);
      continue;
    }
    const group = builds.find((b) => sameBuild(b.build, build));
    if (group) group.files.push(path);
    else builds.push({ build, files: [path] });
  }
  return { builds, unsearched };
}
