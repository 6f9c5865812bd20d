/**
 * What the Landlock box costs a program's start: `git --version` and `true`
 * run bare and through `lspq __box` (src/box/box-entry.ts), with
 * `lspq --version` as the binary's bare start, interleaved in one run so all
 * see the same machine. The box's share is `__box true` less `--version`.
 * Run `bun run build` first; BENCH_RUNS sets the rounds (20).
 *
 *   bun bench/box-start.ts
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { boxArgv, landlockAbi } from '../src/box/landlock';
import type { BoxRules } from '../src/box/rules';
import { fmt, interleaved, LSPQ, median, quantile, RUNS, table, timeCommand, toolsEnv } from './harness';

if (landlockAbi() === 0) throw new Error('this kernel offers no Landlock: nothing to measure');
if (!existsSync(LSPQ)) throw new Error(`${LSPQ} is missing: run bun run build`);

const scratch = mkdtempSync(`${tmpdir()}/lspq-box-bench-`);
// What a boxed git is given: the system's programs and libraries, its configuration, a scratch.
const rules: BoxRules = { read: ['/usr', '/bin', '/lib', '/lib64', '/etc'], write: [scratch], network: false };
const env = toolsEnv();
const git = Bun.which('git', { PATH: env.PATH }) ?? 'git';
const sides: Record<string, string[]> = {
  true: ['true'],
  'lspq __box -- true': boxArgv([LSPQ], rules, ['true']),
  'git --version': [git, '--version'],
  'lspq __box -- git --version': boxArgv([LSPQ], rules, [git, '--version']),
  'lspq --version (bare start)': [LSPQ, '--version'],
};

const times = await interleaved(
  Object.values(sides).map((argv) => async () => {
    const run = await timeCommand(argv, scratch, env);
    if (run.exit !== 0) throw new Error(`${argv.join(' ')} exited ${run.exit}`);
    return run.ms;
  }),
);
const m = (name: string) => median(times[Object.keys(sides).indexOf(name)] ?? []);
const rows = Object.keys(sides).map((name, i) => {
  const own = times[i] ?? [];
  return [name, fmt(median(own)), `${fmt(quantile(own, 0.1))}-${fmt(quantile(own, 0.9))}`];
});
console.log(`Landlock ABI ${landlockAbi()}, ${RUNS} rounds\n`);
console.log(table(['command', 'median ms', 'p10-p90'], rows));
const boxed = m('lspq __box -- git --version');
const bare = m('git --version');
console.log(
  `\ngit --version boxed / bare: ${(boxed / bare).toFixed(1)}x (+${fmt(boxed - bare)} ms); ` +
    `__box true over lspq --version: +${fmt(m('lspq __box -- true') - m('lspq --version (bare start)'))} ms`,
);
