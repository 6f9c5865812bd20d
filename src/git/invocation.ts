/**
 * The git command lines and environment for a planned call: lspq's safety
 * options right after the subcommand, the user's words, and (for --json)
 * the machine formats before the user's `--`. Pure.
 */
import { configParameters, type Neutralized } from './neutralize';
import { BRANCH_FORMAT } from './parse-branch';
import { DIFF_COUNTS_ARGS } from './parse-diff';
import { LOG_FORMAT } from './parse-log';
import type { Plan } from './types';

/** Options that keep read commands from running the repository's diff programs or looking into submodules. */
const SAFETY: Record<string, string[]> = {
  status: ['--ignore-submodules=dirty'],
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty'],
  log: ['--no-ext-diff', '--no-textconv'],
  show: ['--no-ext-diff', '--no-textconv'],
  shortlog: ['--no-ext-diff', '--no-textconv'],
  'stash list': ['--no-ext-diff', '--no-textconv'],
  'stash show': ['--no-ext-diff', '--no-textconv'],
  blame: ['--no-textconv'],
  grep: ['--no-textconv'],
  fetch: ['--recurse-submodules=no'],
};

const COLOR_KEYS = [
  'ui',
  'diff',
  'status',
  'branch',
  'grep',
  'interactive',
  'showbranch',
  'remote',
  'push',
  'transport',
  'advice',
];

/** Colour only when lspq's own output is a terminal: git's output is a pipe to lspq, so it is told. */
export function colorConfig(color: boolean): Array<[string, string]> {
  return COLOR_KEYS.map((k) => [`color.${k}`, color ? 'always' : 'never']);
}

/** `git [globals] CMD [safety] [user options] [format] [-- or --end-of-options, and what follows]`. */
export function gitArgv(plan: Plan, format: readonly string[] = []): string[] {
  const { args, parsed } = plan;
  const safety = SAFETY[plan.command.join(' ')] ?? [];
  // shortlog reads a log from stdin when given no revision, and lspq's stdin is closed.
  const head = plan.command[0] === 'shortlog' && parsed.positionals.length === 0 ? ['HEAD'] : [];
  return [
    '--no-pager',
    ...plan.globals,
    ...plan.command,
    ...safety,
    ...plan.inject,
    ...args.slice(0, parsed.insertAt),
    ...format,
    ...head,
    ...args.slice(parsed.insertAt),
  ];
}

/** Diff output formats that would mix with the ones lspq parses. */
const DIFF_FORMATS = [
  'patch',
  'stat',
  'numstat',
  'shortstat',
  'dirstat',
  'dirstat-by-file',
  'cumulative',
  'raw',
  'name-only',
  'name-status',
  'summary',
  'compact-summary',
  'check',
  'patch-with-raw',
  'patch-with-stat',
  'no-patch',
  'line-prefix',
  'quiet',
];
const LOG_ONLY = ['graph', 'show-signature', 'cc'];
const SHORT_FORMATS: Record<string, string[]> = { diff: ['p', 'u', 's'], log: ['p', 'u', 's', 'L'] };

/** An option the user gave that --json cannot honour, as written. */
export function jsonConflict(plan: Plan): string | undefined {
  if (plan.json !== 'diff' && plan.json !== 'log') return undefined;
  const longs = plan.json === 'log' ? [...DIFF_FORMATS, ...LOG_ONLY] : DIFF_FORMATS;
  const shorts = SHORT_FORMATS[plan.json] ?? [];
  for (const o of plan.parsed.options) {
    if (o.raw.startsWith('--')) {
      const body = o.raw.slice(2).split('=')[0] as string;
      if (longs.includes(body)) return o.raw;
    } else if (shorts.includes(o.raw.slice(1))) return o.raw;
  }
  return undefined;
}

/** The git calls whose output the --json parsers read. Diff needs two: counts, then hunks. */
export function jsonCalls(plan: Plan): string[][] {
  switch (plan.json) {
    case 'status':
      return [gitArgv(plan, ['--porcelain=v2', '--branch', '-z'])];
    case 'log':
      return [gitArgv(plan, [LOG_FORMAT, '--no-color', '--encoding=UTF-8'])];
    case 'branch':
      return [gitArgv(plan, [BRANCH_FORMAT, '--no-color', '--no-column'])];
    case 'diff':
      return [
        gitArgv(plan, [...DIFF_COUNTS_ARGS, '--no-color']),
        gitArgv(plan, ['-p', '--no-color', '--src-prefix=a/', '--dst-prefix=b/']),
      ];
    case 'none':
      return [gitArgv(plan)];
  }
}

/** The caller's environment, made safe: no pager, editor or prompt; lspq's config last so it wins. */
export function gitEnv(
  base: Record<string, string>,
  neutralized: Neutralized,
  extra: ReadonlyArray<[string, string]>,
): Record<string, string> {
  const env = { ...base, ...neutralized.env };
  env.GIT_CONFIG_PARAMETERS = configParameters([...neutralized.config, ...extra], base.GIT_CONFIG_PARAMETERS);
  return env;
}
