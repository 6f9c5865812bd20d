/**
 * What reading the code with the answer costs: a warm `lspq def` against
 * the same `def -C 3` and `def --body`, interleaved in one run, on lspq's
 * own source (TypeScript 7), cobra (gopls) and requests (pyright). The
 * goal: at most +1 ms for -C 3 and +3 ms for --body (median). Prints
 * markdown; `bun bench/excerpts.ts`.
 */
import { benchEnv, fmt, interleaved, LSPQ, median, RUNS, table, timeCommand } from './harness';
import { position, projects } from './projects';

const rows: (string | number)[][] = [];
for (const project of projects().filter((p) => !p.lang.startsWith('C'))) {
  const at = position(project, project.target);
  const target = `${at.path}:${at.line}:${project.target.name}`;
  const def = (extra: string[]) => async () => {
    const r = await timeCommand([LSPQ, 'def', target, ...extra], project.root, benchEnv);
    if (r.exit !== 0) throw new Error(`lspq def ${target} ${extra.join(' ')} exited ${r.exit}`);
    return r.ms;
  };
  // Warm: the server started, the document symbols of the answer's file cached once.
  for (const extra of [[], ['-C', '3'], ['--body']]) await def(extra)();
  const [plain, context, body] = await interleaved([def([]), def(['-C', '3']), def(['--body'])]);
  const m = [median(plain!), median(context!), median(body!)];
  rows.push([
    project.lang,
    fmt(m[0]!),
    fmt(m[1]!),
    `${m[1]! - m[0]! >= 0 ? '+' : ''}${fmt(m[1]! - m[0]!)}`,
    fmt(m[2]!),
    `${m[2]! - m[0]! >= 0 ? '+' : ''}${fmt(m[2]! - m[0]!)}`,
  ]);
}
await timeCommand([LSPQ, 'daemon', 'stop'], process.cwd(), benchEnv);
console.log(
  table(['project', 'def (ms)', 'def -C 3', 'Δ', 'def --body', 'Δ'], rows),
  `\n\nRuns per figure: ${RUNS}, interleaved; medians of whole warm commands.`,
);
