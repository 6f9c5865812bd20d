/**
 * What the box costs, side by side in one run: for a workspace not
 * trusted, with no box (LSPQ_BOX=off, the untrusted modes), in bubblewrap
 * and in Landlock, interleaved:
 * - a git call: `lspq git status --json` as a whole command (no daemon),
 *   and the git process alone, bare and boxed (the goal: within 10 ms);
 * - a server start: the first `def` from a new daemon (typescript-language-server);
 * - a warm answer: `def` from a daemon that holds the server (the goal: within 5%).
 * Run `bun run build` first; BENCH_RUNS sets the rounds (20).
 *
 *   bun bench/box.ts
 */
import { cpSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boxed } from '../src/box/command';
import { containmentFor } from '../src/box/containment';
import { FIXTURES } from '../test/helpers/lspq';
import { fmt, interleaved, LSPQ, median, ownDaemon, table, timeCommand, toolsEnv } from './harness';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'lspq-bench-box-')));
const project = join(base, 'ts-shapes');
cpSync(join(FIXTURES, 'ts-shapes'), project, { recursive: true });
Bun.spawnSync(['git', 'init', '-q', '-b', 'main'], { cwd: project });
Bun.spawnSync(['git', '-c', 'user.name=b', '-c', 'user.email=b@x', 'commit', '-qm', 'x', '--allow-empty'], {
  cwd: project,
});

const kinds = ['off', 'bubblewrap', 'landlock'] as const;
const available = kinds.filter((k) => k === 'off' || 'box' in containmentFor({ ...toolsEnv(), LSPQ_BOX: k }));
const envOf = (kind: string, name: string) =>
  ownDaemon(toolsEnv({ LSPQ_BOX: kind, XDG_CACHE_HOME: join(base, `cache-${name}`) }), name);

async function timed(argv: string[], env: Record<string, string>): Promise<number> {
  const r = await timeCommand(argv, project, env);
  if (r.exit !== 0) throw new Error(`${argv.join(' ')} exited ${r.exit} (LSPQ_BOX=${env.LSPQ_BOX})`);
  return r.ms;
}

function report(title: string, names: string[], times: number[][]): void {
  const base0 = median(times[0] ?? []);
  const rows = names.map((name, i) => {
    const m = median(times[i] ?? []);
    return [name, fmt(m), i === 0 ? '1.00x' : `${(m / base0).toFixed(2)}x (+${fmt(m - base0)} ms)`];
  });
  console.log(`\n${title}\n${table(['', 'median ms', 'against the first'], rows)}`);
}

// The git process alone: bare, and as each box starts it.
const git = Bun.which('git', { PATH: toolsEnv().PATH }) ?? 'git';
const gitSides = available.map((kind) => {
  const env = toolsEnv({ XDG_CACHE_HOME: join(base, 'cache-git') });
  const box = containmentFor({ ...env, LSPQ_BOX: kind });
  const argv = [git, 'status', '--porcelain'];
  const run =
    kind === 'off' || !('box' in box)
      ? { argv, env }
      : boxed(argv, box.box, {
          purpose: 'git',
          root: project,
          binary: git,
          cwd: project,
          env,
          git: true,
          self: [LSPQ],
        });
  return () => timed(run.argv, run.env);
});
report(
  'the git process (git status --porcelain)',
  available.map((k) => (k === 'off' ? 'bare' : k)),
  await interleaved(gitSides),
);

// lspq git as a whole command, no daemon.
report(
  'lspq git status --json (no daemon)',
  available.map((k) => `LSPQ_BOX=${k}`),
  await interleaved(
    available.map(
      (k) => () => timed([LSPQ, 'git', 'status', '--json'], { ...envOf(k, `git-${k}`), LSPQ_NO_DAEMON: '1' }),
    ),
  ),
);

// A server's start: the first def from a new daemon, each round.
const def = [LSPQ, 'def', 'src/main.ts:7:totalArea', '--server', 'typescript-language-server'];
const startEnvs = available.map((k) => envOf(k, `start-${k}`));
const starts = await interleaved(
  startEnvs.map((env) => async () => {
    await timeCommand([LSPQ, 'daemon', 'stop'], project, env);
    return timed(def, env);
  }),
);
report(
  'a server start: the first def from a new daemon',
  available.map((k) => `LSPQ_BOX=${k}`),
  starts,
);

// A warm answer: the daemon holds the server.
const warmEnvs = available.map((k) => envOf(k, `warm-${k}`));
for (const env of warmEnvs) await timed(def, env);
report(
  'a warm def',
  available.map((k) => `LSPQ_BOX=${k}`),
  await interleaved(warmEnvs.map((env) => () => timed(def, env))),
);

for (const env of [...startEnvs, ...warmEnvs]) await timeCommand([LSPQ, 'daemon', 'stop'], project, env);
