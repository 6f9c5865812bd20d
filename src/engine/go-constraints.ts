/**
 * Go's build constraints as go/build reads them: the platforms and
 * architectures it knows, a file name's `_GOOS_GOARCH`, a `//go:build`
 * line with the tags that hold under a configuration (cgo, unix, the
 * platforms that answer to another's name), a file importing "C", and a
 * configuration that compiles a file. Pure, but for where the environment
 * says this configuration is (go-builds.ts asks Go itself first).
 */
import { basename } from 'node:path';

/** The platforms a configuration is tried for, in go/build's order of its knownOS (nacl, long gone, is known but never tried). */
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
const KNOWN_OS = new Set<string>([...GOOS, 'nacl']);
/** The architectures a configuration is tried for. */
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
  'mips64le',
  'mips',
  'mipsle',
  'loong64',
];
/** Every architecture go/build knows in a file name (knownArch): `x_sparc64.go` is constrained though never tried. */
const KNOWN_ARCH = new Set<string>([
  ...GOARCH,
  'amd64p32',
  'armbe',
  'arm64be',
  'mips64p32',
  'mips64p32le',
  'ppc',
  'riscv',
  's390',
  'sparc',
  'sparc64',
]);
/** Every GOOS but these is a "unix" one (go/build's unixOS list). */
const UNIX = new Set<string>(GOOS.filter((os) => !['windows', 'plan9', 'js', 'wasip1', 'zos'].includes(os)));
/** A platform that also answers to another's name (go/build's matchTag): android is linux, ios darwin, illumos solaris. */
const ALSO: Record<string, string> = { android: 'linux', ios: 'darwin', illumos: 'solaris' };

/** A build configuration: the target platform, whether cgo is enabled, and the tags set. */
export interface Build {
  goos: string;
  goarch: string;
  cgo: boolean;
  tags: string[];
}

export const sameBuild = (a: Build, b: Build) =>
  a.goos === b.goos && a.goarch === b.goarch && a.cgo === b.cgo && a.tags.join(',') === b.tags.join(',');

/** -tags from GOFLAGS, sorted. Pure. */
export const tagsOf = (goflags: string | undefined) =>
  (
    /(?:^|\s)-tags[= ]([\w,.-]+)/
      .exec(goflags ?? '')?.[1]
      ?.split(',')
      .filter(Boolean) ?? []
  ).sort();

/**
 * The configuration the environment gives: GOOS, GOARCH, CGO_ENABLED and
 * GOFLAGS's -tags, else this machine's (cgo as the go command defaults it:
 * on for a native build with a C compiler on PATH). `goEnv` asks Go itself.
 */
export function currentBuild(env: Record<string, string | undefined>): Build {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch;
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const goos = env.GOOS || os;
  const goarch = env.GOARCH || arch;
  const native = goos === os && goarch === arch;
  const compiler = () => ['gcc', 'clang', 'cc'].some((c) => Bun.which(env.CC || c, { PATH: env.PATH ?? '' }) !== null);
  const cgo = env.CGO_ENABLED ? env.CGO_ENABLED === '1' : native && compiler();
  return { goos, goarch, cgo, tags: tagsOf(env.GOFLAGS) };
}

/** Whether a build tag holds under `build`, as go/build's matchTag says. Pure. */
function matchTag(tag: string, build: Build): boolean {
  return (
    tag === build.goos ||
    tag === build.goarch ||
    tag === ALSO[build.goos] ||
    (tag === 'cgo' && build.cgo) ||
    (tag === 'unix' && UNIX.has(build.goos)) ||
    tag === 'gc' ||
    build.tags.includes(tag) ||
    /^go1\.\d+$/.test(tag)
  );
}

/** What the file's name says (`x_windows.go`, `x_linux_arm64_test.go`), if anything. Pure. */
export function nameConstraint(path: string): { goos?: string; goarch?: string } {
  // As go/build reads it: the name before its first dot, from its first underscore.
  const [stem = ''] = basename(path).split('.', 1);
  const parts = stem.split('_').slice(1);
  if (parts.at(-1) === 'test') parts.pop();
  const last = parts.at(-1);
  if (last === undefined) return {};
  const before = parts.at(-2);
  if (before && KNOWN_OS.has(before) && KNOWN_ARCH.has(last)) return { goos: before, goarch: last };
  if (KNOWN_OS.has(last)) return { goos: last };
  if (KNOWN_ARCH.has(last)) return { goarch: last };
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

/** Whether the file imports "C": cgo's, left out of every build with cgo off. Pure. */
export function importsC(text: string): boolean {
  return /^import\s+"C"/m.test(text) || /^import\s*\([^)]*^\s*"C"\s*$/m.test(text);
}

/** Whether a `//go:build` expression holds under `build`. Pure. */
export function satisfies(expression: string, build: Build): boolean {
  const tokens = expression.match(/[\w.]+|&&|\|\||!|\(|\)/g) ?? [];
  let i = 0;
  const primary = (): boolean => {
    const t = tokens[i++];
    if (t === '!') return !primary();
    if (t === '(') {
      const v = or();
      i++; // ')'
      return v;
    }
    return t !== undefined && matchTag(t, build);
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
  if (named.goos && !matchTag(named.goos, build)) return false;
  if (named.goarch && !matchTag(named.goarch, build)) return false;
  if (importsC(text) && !build.cgo) return false;
  const line = buildLine(text);
  return line === undefined || satisfies(line, build);
}

/** Whether anything but the package it is in decides if a file is compiled: its name, a build line, cgo. Pure. */
export function constrained(path: string, text: string): boolean {
  const named = nameConstraint(path);
  return named.goos !== undefined || named.goarch !== undefined || buildLine(text) !== undefined || importsC(text);
}

/**
 * A configuration that compiles the file, nearest to `here` first (the
 * same platform with the file's tags, then each platform its name or
 * build line names; cgo as `here` has it on its own platform, off for
 * another, as the go command defaults it, then the other way); undefined
 * when none tried does.
 */
export function buildFor(path: string, text: string, here: Build): Build | undefined {
  const named = nameConstraint(path);
  const words = (buildLine(text)?.match(/[\w.]+/g) ?? []).filter((w) => !/^go1\.\d+$/.test(w));
  const oses = [
    ...new Set([named.goos, ...words.filter((w) => (GOOS as readonly string[]).includes(w)), here.goos]),
  ].filter((o): o is string => o !== undefined && (GOOS as readonly string[]).includes(o));
  const arches = [...new Set([named.goarch, ...words.filter((w) => GOARCH.includes(w)), here.goarch, 'amd64'])].filter(
    (a): a is string => a !== undefined && GOARCH.includes(a),
  );
  const custom = words.filter(
    (w) => !KNOWN_OS.has(w) && !KNOWN_ARCH.has(w) && !['unix', 'gc', 'gccgo', 'cgo'].includes(w),
  );
  const tagSets = [here.tags, [...new Set([...here.tags, ...custom])].sort()];
  for (const tags of tagSets)
    for (const goos of oses)
      for (const goarch of arches) {
        const native = goos === here.goos && goarch === here.goarch && here.cgo;
        for (const cgo of [native, !native]) {
          const build = { goos, goarch, cgo, tags };
          if (builtUnder(path, text, build)) return build;
        }
      }
  return undefined;
}

/** The environment a gopls for `build` runs with: the caller's, its platform, cgo and tags set. */
export function envFor(env: Record<string, string>, build: Build): Record<string, string> {
  const flags = (env.GOFLAGS ?? '').replace(/(?:^|\s)-tags[= ][\w,.-]+/, '').trim();
  const tags = build.tags.length ? `-tags=${build.tags.join(',')}` : '';
  const GOFLAGS = [flags, tags].filter(Boolean).join(' ');
  return {
    ...env,
    GOOS: build.goos,
    GOARCH: build.goarch,
    CGO_ENABLED: build.cgo ? '1' : '0',
    ...(GOFLAGS ? { GOFLAGS } : {}),
  };
}

export const buildLabel = (b: Build) =>
  `GOOS=${b.goos} GOARCH=${b.goarch} CGO_ENABLED=${b.cgo ? 1 : 0}${b.tags.length ? ` -tags=${b.tags.join(',')}` : ''}`;

/**
 * A message without the platform gopls appends when a view of another
 * build reports it (` [windows]`, ` [windows,amd64]`): the same problem
 * whichever view said it, as an edit's before and after are compared.
 */
export function withoutViewLabel(message: string): string {
  const label = /\s\[([a-z0-9]+(?:[,/][a-z0-9]+)*)\]$/.exec(message);
  if (!label?.[1]) return message;
  const parts = label[1].split(/[,/]/);
  return parts.every((p) => KNOWN_OS.has(p) || KNOWN_ARCH.has(p)) ? message.slice(0, label.index) : message;
}
