/**
 * Answers from a SCIP index against a live server, on the largest projects
 * here that have an indexer: django (scip-python), effect (scip-typescript),
 * regex-syntax (rust-analyzer scip), cobra and the Go standard library with
 * cmd (GOROOT/src, indexed with --out into bench/.work, GOROOT untouched;
 * scip-go). For each: the index's build time
 * and size; cold and warm `def` and `refs` from the index against a cold
 * and a warm server (interleaved); the daemon's memory holding the index
 * against the server's; and how often the two agree, over positions
 * sampled from the index (def: the same first place; refs: the same set).
 * Prints markdown; `bun bench/index.ts`. BENCH_PROJECTS=django narrows it.
 * For the standard library it also counts the calls of strings.Join that
 * grep finds outside tests against the index's answer.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ScipIndex } from '../src/scip/scip-index';
import { fromServerCharacter } from '../src/lsp/position';
import { django, effect } from './big-projects';
import { fmt, LSPQ, median, table, timeCommand, toolsEnv } from './harness';
import { WORK } from './projects';

const env = toolsEnv({ LSPQ_SOCKET: join(WORK, 'index-daemon', 'daemon.sock') });
const WARM_RUNS = Number(process.env.BENCH_RUNS ?? 10);
const COLD_RUNS = 3;
const SAMPLE = 150;

/** regex-syntax's sources from cargo's registry (fetched through a throwaway crate that depends on it). */
function regexSyntax(): string {
  const root = join(WORK, 'regex-syntax');
  if (existsSync(root)) return root;
  const fetcher = join(WORK, 'fetch-regex-syntax');
  mkdirSync(join(fetcher, 'src'), { recursive: true });
  Bun.write(
    join(fetcher, 'Cargo.toml'),
    '[package]\nname = "fetch"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nregex-syntax = "=0.8.5"\n',
  );
  Bun.write(join(fetcher, 'src', 'main.rs'), 'fn main() {}\n');
  Bun.spawnSync(['cargo', 'fetch', '-q'], { cwd: fetcher, env });
  const registry = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'src');
  const index = readdirSync(registry).find((d) => existsSync(join(registry, d, 'regex-syntax-0.8.5')));
  if (!index) throw new Error('cargo fetch did not bring regex-syntax 0.8.5');
  cpSync(join(registry, index, 'regex-syntax-0.8.5'), root, { recursive: true });
  return root;
}

/** cobra's sources from the Go module proxy, copied out of the read-only module cache. */
function cobra(): string {
  const root = join(WORK, 'cobra');
  if (existsSync(root)) return root;
  const r = Bun.spawnSync(['go', 'mod', 'download', '-json', 'github.com/spf13/cobra@v1.10.2'], {
    cwd: WORK,
    env: { ...env, GOFLAGS: '-mod=mod', GOWORK: 'off' },
  });
  const dir = (JSON.parse(r.stdout.toString()) as { Dir?: string }).Dir;
  if (!dir) throw new Error(`go mod download of cobra failed: ${r.stderr.toString()}`);
  cpSync(dir, root, { recursive: true });
  Bun.spawnSync(['chmod', '-R', 'u+w', root]);
  // Its dependencies, so that gopls and scip-go load it whole.
  Bun.spawnSync(['go', 'mod', 'download'], { cwd: root, env });
  return root;
}

/** GOROOT/src: std, and cmd as a module of its own below it. */
function goSource(): string {
  return join(Bun.spawnSync(['go', 'env', 'GOROOT'], { env }).stdout.toString().trim(), 'src');
}

interface Case {
  name: string;
  root: string;
  /** Where the index goes when the tree is not lspq's to write into (read back with --index). */
  out?: string;
}

/** The index of the case being measured, when it lives outside the tree (--out). */
let indexFlag: string[] = [];

async function lspq(args: string[], cwd: string) {
  const asks = ['def', 'refs', 'batch'].includes(args[0]!) && !args.includes('--no-index');
  const r = await timeCommand([LSPQ, ...args, ...(asks ? indexFlag : [])], cwd, env);
  return { ...r, json: () => JSON.parse(r.stdout) };
}

/** Positions of references in the index whose symbol it defines: lspq targets, FILE:LINE:COL in code points. */
function samples(index: ScipIndex, root: string): string[] {
  const out: string[] = [];
  for (const doc of index.documents.values()) {
    let lines: string[] | undefined;
    for (const occ of index.occurrencesIn(doc)) {
      if (occ.roles & 1 || occ.symbol.startsWith('local ') || index.definitions(occ.symbol).length === 0) continue;
      lines ??= readFileSync(doc.path, 'utf8').split('\n');
      const text = lines[occ.line] ?? '';
      const column = fromServerCharacter(text, occ.character, doc.encoding) + 1;
      out.push(`${doc.path.slice(root.length + 1)}:${occ.line + 1}:${column}`);
    }
  }
  const step = Math.max(1, Math.floor(out.length / SAMPLE));
  return out.filter((_, i) => i % step === 0).slice(0, SAMPLE);
}

/** The same questions asked of both, through one batch each: how many answers agree. */
async function agreement(root: string, targets: string[], op: 'def' | 'refs'): Promise<number> {
  const ask = async (extra: string[]) => {
    const input = targets.map((t) => JSON.stringify([op, t, ...extra])).join('\n');
    const proc = Bun.spawn([LSPQ, 'batch', '--jobs', '4'], {
      cwd: root,
      env,
      stdin: new Blob([input]),
      stdout: 'pipe',
    });
    const lines = (await new Response(proc.stdout).text()).trim().split('\n');
    await proc.exited;
    return lines.map((l) => {
      const a = JSON.parse(l).answer as { locations?: { path: string; line: number }[] } | undefined;
      const places = (a?.locations ?? []).map((x) => `${x.path}:${x.line}`);
      return op === 'def' ? (places[0] ?? '') : places.sort().join(',');
    });
  };
  const fromIndex = await ask(['--index-only', ...indexFlag]);
  const live = await ask(['--no-index']);
  const same = fromIndex.filter((x, i) => x !== '' && x === live[i]).length;
  return (100 * same) / targets.length;
}

/**
 * strings.Join in the standard library: the calls grep finds outside tests
 * and testdata against the index's answer, and what the index leaves out by
 * kind (vendored copies, files for other platforms or `//go:build ignore`
 * generators, comments).
 */
async function joinCalls(root: string): Promise<string> {
  const grep = Bun.spawnSync(['grep', '-rnw', '--include=*.go', 'strings\\.Join', '.'], { cwd: root });
  const lines = grep.stdout
    .toString()
    .trim()
    .split('\n')
    .filter((l) => !/_test\.go:|\/testdata\//.test(l))
    .map((l) => l.replace(/^\.\//, '').split(':').slice(0, 2).join(':'));
  const line = readFileSync(join(root, 'strings', 'strings.go'), 'utf8')
    .split('\n')
    .findIndex((l) => l.startsWith('func Join('));
  const answer = (
    await lspq(['refs', `strings/strings.go:${line + 1}:Join`, '--index-only', '--limit', '100000', '--json'], root)
  ).json() as {
    locations: { path: string; line: number }[];
  };
  const found = new Set(answer.locations.map((l) => `${l.path}:${l.line}`));
  const missed = lines.filter((l) => !found.has(l));
  const vendored = missed.filter((l) => l.includes('vendor/')).length;
  return `\n#### strings.Join in GOROOT/src: ${lines.length} lines grep finds outside tests, ${lines.length - missed.length} in the index's answer; left out: ${vendored} in vendored copies, ${missed.length - vendored} in files the go command leaves out of this platform's build or in comments\n`;
}

async function main(): Promise<void> {
  mkdirSync(join(WORK, 'index-daemon'), { recursive: true, mode: 0o700 });
  const only = process.env.BENCH_PROJECTS?.split(',');
  const cases: Case[] = [
    // The package itself: scip-python 0.6.6 stops with an internal error on django's tests/model_enums.
    { name: 'django', root: join(django(), 'django') },
    { name: 'effect', root: effect() },
    { name: 'regex-syntax', root: regexSyntax() },
    { name: 'cobra', root: cobra() },
    { name: 'go-std', root: goSource(), out: join(WORK, 'go-std-index', 'index.scip') },
  ].filter((c) => !only || only.includes(c.name));
  const build: (string | number)[][] = [];
  const speed: (string | number)[][] = [];
  const memory: (string | number)[][] = [];
  const agree: (string | number)[][] = [];
  const grepped: string[] = [];
  for (const c of cases) {
    await lspq(['daemon', 'stop'], c.root);
    const built = await lspq(['index', '--root', '.', ...(c.out ? ['--out', c.out] : []), '--json'], c.root);
    if (built.exit !== 0) throw new Error(`lspq index failed in ${c.root}`);
    const info = built.json() as { documents: number; bytes: number; file: string };
    indexFlag = c.out ? ['--index', c.out] : [];
    build.push([c.name, info.documents, fmt(built.ms / 1000), fmt(info.bytes / 1_048_576)]);
    const index = ScipIndex.load(info.file, c.root);
    const targets = samples(index, c.root);
    const target = targets[Math.floor(targets.length / 2)]!;
    const cold: Record<string, number[]> = { idxDef: [], srvDef: [], idxRefs: [], srvRefs: [] };
    for (let i = 0; i < COLD_RUNS; i++) {
      for (const [key, args] of [
        ['idxDef', ['def', target]],
        ['srvDef', ['def', target, '--no-index', '--timeout', '600']],
        ['idxRefs', ['refs', target]],
        ['srvRefs', ['refs', target, '--no-index', '--timeout', '600']],
      ] as const) {
        await lspq(['daemon', 'stop'], c.root);
        cold[key]!.push((await lspq([...args], c.root)).ms);
      }
    }
    // Warm: the server loaded, the index held; interleaved.
    await lspq(['refs', target, '--no-index', '--timeout', '600'], c.root);
    const warm: Record<string, number[]> = { idxDef: [], srvDef: [], idxRefs: [], srvRefs: [] };
    for (let i = 0; i < WARM_RUNS; i++) {
      warm.idxDef!.push((await lspq(['def', target], c.root)).ms);
      warm.srvDef!.push((await lspq(['def', target, '--no-index'], c.root)).ms);
      warm.idxRefs!.push((await lspq(['refs', target], c.root)).ms);
      warm.srvRefs!.push((await lspq(['refs', target, '--no-index'], c.root)).ms);
    }
    const m = (k: string, from: Record<string, number[]>) => median(from[k]!);
    speed.push([
      c.name,
      fmt(m('idxDef', cold)),
      fmt(m('srvDef', cold)),
      fmt(m('idxRefs', cold)),
      fmt(m('srvRefs', cold)),
      fmt(m('idxDef', warm)),
      fmt(m('srvDef', warm)),
      fmt(m('idxRefs', warm)),
      fmt(m('srvRefs', warm)),
      `${m('idxRefs', cold) - m('srvRefs', warm) >= 0 ? '+' : ''}${fmt(m('idxRefs', cold) - m('srvRefs', warm))}`,
    ]);
    // Memory: a daemon holding only the index, then the server it would need instead.
    await lspq(['daemon', 'stop'], c.root);
    await lspq(['refs', target], c.root);
    const withIndex = (await lspq(['daemon', 'status', '--json'], c.root)).json() as { memoryBytes: number };
    await lspq(['refs', target, '--no-index', '--timeout', '600'], c.root);
    const status = (await lspq(['daemon', 'status', '--json'], c.root)).json() as {
      servers: { memoryBytes: number | null }[];
    };
    const server = status.servers.reduce((n, s) => n + (s.memoryBytes ?? 0), 0);
    memory.push([
      c.name,
      fmt(withIndex.memoryBytes / 1_048_576),
      fmt(server / 1_048_576),
      `${((100 * withIndex.memoryBytes) / server).toFixed(0)}%`,
    ]);
    agree.push([
      c.name,
      targets.length,
      `${(await agreement(c.root, targets, 'def')).toFixed(0)}%`,
      `${(await agreement(c.root, targets.slice(0, 40), 'refs')).toFixed(0)}%`,
    ]);
    if (c.name === 'go-std') grepped.push(await joinCalls(c.root));
    await lspq(['daemon', 'stop'], c.root);
    statSync(info.file);
  }
  console.log(
    [
      '#### Building the index\n',
      table(['project', 'files', 'build s', 'index MB'], build),
      '\n#### Answers: from the index against the server (ms)\n',
      table(
        [
          'project',
          'cold def, index',
          'cold def, server',
          'cold refs, index',
          'cold refs, server',
          'warm def, index',
          'warm def, server',
          'warm refs, index',
          'warm refs, server',
          'cold index refs over warm server refs',
        ],
        speed,
      ),
      '\n#### Memory: the daemon holding the index against the server it replaces (MB)\n',
      table(['project', 'daemon with the index', 'server', 'index / server'], memory),
      '\n#### Agreement with the live server, over positions sampled from the index\n',
      table(['project', 'positions', 'def: same first place', 'refs: same set (first 40)'], agree),
      ...grepped,
    ].join('\n'),
  );
}

await main();
