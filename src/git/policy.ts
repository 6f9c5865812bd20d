/**
 * lspq's git policy: every call is read, write, destructive or refused,
 * decided from the options as git's parse-options leaves them (the last of
 * `--x` / `--no-x`, abbreviations, bundles, values, `--`) and from the
 * words and refspecs, never from a substring. Where git would stop on an
 * option, or lspq cannot tell what git will do, it refuses. Pure: the facts
 * about the repository come in as data.
 */
import { on, parseArgs, table, type OptionTable, type ParsedArgs } from './grammar';
import { repositoryUploadPack } from './neutralize';
import { READS, REMOTE, RULES, STASH, type Rule } from './policy-rules';
import { OPTIONS, READ_OPTIONS } from './tables';
import type { GitFacts, JsonKind, Plan, Verdict } from './types';

/** Global options that change nothing about what git runs or where. */
const SAFE_GLOBALS = new Set([
  '--no-pager',
  '-P',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-advice',
  '--no-lazy-fetch',
]);

const ELSEWHERE = 'it points git at another repository or directory; run lspq git from there instead';

const NEVER_GLOBALS: Record<string, string> = {
  '-c': 'it sets configuration, and configuration can name programs for git to run',
  '--config-env': 'it sets configuration, and configuration can name programs for git to run',
  '--exec-path': 'it changes where git finds the programs it runs',
  '-C': ELSEWHERE,
  '--git-dir': ELSEWHERE,
  '--work-tree': ELSEWHERE,
  '--namespace': ELSEWHERE,
  '--bare': ELSEWHERE,
  '-p': 'it starts a pager program',
  '--paginate': 'it starts a pager program',
};

/** Options that run programs or write outside the repository, in any subcommand. */
const NEVER_OPTIONS: Record<string, string> = {
  exec: 'it runs a command of your choosing',
  'upload-pack': 'it names a program for git to run',
  'receive-pack': 'it names a program for git to run',
  output: 'it writes a file wherever it is told to',
  'ext-diff': "it runs the repository's external diff program",
  textconv: "it runs the repository's textconv filters",
  'open-files-in-pager': 'it starts a pager program',
};

/** Read options whose long name is a prefix of a refused one, but which are harmless themselves. */
const HARMLESS_PREFIXES = new Set(['text']);

const TRANSPORT = new Set(['fetch', 'pull', 'push', 'remote']);

interface Located {
  globals: string[];
  command: string[];
  args: string[];
  options: OptionTable;
  rule?: Rule;
  refused?: Verdict;
}

const refuse = (what: string, because: string): Verdict => ({ cls: 'refused', what, because });

/** No options known: for calls refused before their options matter. */
const NONE = table('', 'partial');

function tableFor(key: string): { options: OptionTable } {
  return { options: OPTIONS[key] ?? READ_OPTIONS[key] ?? NONE };
}

/** Splits global options, the subcommand words and their arguments; refuses what cannot be allowed at this level. */
export function locate(words: readonly string[]): Located {
  const globals: string[] = [];
  let i = 0;
  for (; i < words.length && (words[i] as string).startsWith('-'); i++) {
    const word = words[i] as string;
    if (SAFE_GLOBALS.has(word)) {
      globals.push(word);
      continue;
    }
    const name = word.startsWith('--') ? (word.split('=')[0] as string) : word.slice(0, 2);
    const because = NEVER_GLOBALS[name] ?? 'lspq git does not know this global option';
    return { globals, command: [], args: [], options: NONE, refused: refuse(`git ${word}`, because) };
  }
  const sub = words[i];
  const rest = words.slice(i + 1);
  if (sub === undefined)
    return {
      globals,
      command: [],
      args: [],
      options: NONE,
      refused: refuse('git', 'a subcommand is missing'),
    };
  if (sub === 'stash') return locateStash(globals, rest);
  if (sub === 'remote') return locateRemote(globals, rest);
  const rule = RULES[sub];
  if (!rule)
    return {
      globals,
      command: [sub],
      args: rest,
      options: NONE,
      refused: refuse(`git ${sub}`, notAllowed(sub)),
    };
  return { globals, command: [sub], args: rest, ...tableFor(sub), rule };
}

function notAllowed(sub: string): string {
  return `lspq git runs only ${READS.join(', ')}, fetch, branch, tag, stash, remote (listing) and, when allowed, the commands that change the repository; '${sub}' is none of them`;
}

function locateStash(globals: string[], rest: string[]): Located {
  const first = rest[0];
  if (first === undefined || first.startsWith('-'))
    return { globals, command: ['stash'], args: rest, ...tableFor('stash push'), rule: STASH.push };
  const rule = STASH[first];
  const command = ['stash', first];
  if (!rule)
    return {
      globals,
      command,
      args: rest.slice(1),
      options: NONE,
      refused: refuse(`git stash ${first}`, `'${first}' is not a stash subcommand lspq knows`),
    };
  return { globals, command, args: rest.slice(1), ...tableFor(`stash ${first}`), rule };
}

function locateRemote(globals: string[], rest: string[]): Located {
  let i = 0;
  while (i < rest.length && (rest[i] === '-v' || rest[i] === '--verbose')) i++;
  const sub = rest[i];
  const command = ['remote', ...rest.slice(0, i + (sub === undefined ? 0 : 1))];
  const rule = REMOTE[sub ?? ''];
  if (!rule) {
    return {
      globals,
      command,
      args: rest.slice(i + 1),
      options: NONE,
      refused: refuse(`git remote ${sub}`, 'lspq git lists and shows remotes but does not change them'),
    };
  }
  return { globals, command, args: rest.slice(i + 1), ...tableFor(sub ? `remote ${sub}` : 'remote'), rule };
}

/** Names whose being a commit decides the class (`checkout NAME`): the runner asks git about them first. */
export function probeNames(words: readonly string[]): string[] {
  const at = locate(words);
  if (at.refused || at.command[0] !== 'checkout') return [];
  const p = parseArgs(at.args, at.options);
  return p.positionals.length === 1 && !p.dashDash ? [p.positionals[0] as string] : [];
}

const SUBMODULE_CONFIG = 'it runs git inside submodules, whose own configuration lspq cannot vet';

/**
 * A word of a read command that could be a refused option. Read tables are
 * partial, so every `--word` counts, even one lspq would take for a value
 * or a path, and a prefix of a refused name counts as that option.
 */
function suspiciousReadWord(word: string, options: OptionTable): string | undefined {
  if (!word.startsWith('--') || word === '--') return undefined;
  const eq = word.indexOf('=');
  const body = word.slice(2, eq < 0 ? undefined : eq);
  const value = eq < 0 ? undefined : word.slice(eq + 1);
  if (!body || body.startsWith('no-')) return undefined;
  const known = HARMLESS_PREFIXES.has(body) || options.specs.some((s) => s.long === body);
  const hit = Object.keys(NEVER_OPTIONS).find((name) => name === body || (!known && name.startsWith(body)));
  if (hit) return NEVER_OPTIONS[hit];
  if ('ignore-submodules'.startsWith(body) && (value === 'none' || value === 'untracked')) return SUBMODULE_CONFIG;
  if ('submodule'.startsWith(body) && value === 'diff') return SUBMODULE_CONFIG;
  return undefined;
}

/** Refused options: by their parsed meaning, ext:: transports, and for read commands any word that could be one. */
function neverAllowed(at: Located, p: ParsedArgs): Verdict | undefined {
  const sub = `git ${at.command.join(' ')}`;
  // Any word that names one counts, even if a later --no- undoes it: the stricter reading.
  for (const o of p.options) {
    const because = o.negated ? undefined : NEVER_OPTIONS[o.name];
    if (because) return refuse(`${sub} ${o.raw}`, because);
  }
  for (const word of at.args) {
    if (TRANSPORT.has(at.command[0] as string) && /(^|=)ext::/.test(word))
      return refuse(`${sub} ${word}`, 'ext:: remotes run a command of your choosing');
    const because = at.options.whole ? undefined : suspiciousReadWord(word, at.options);
    if (because) return refuse(`${sub} ${word}`, because);
  }
  return undefined;
}

function jsonKind(command: string[], p: ParsedArgs, verdict: Verdict): JsonKind {
  const [sub] = command;
  if (command.length !== 1) return 'none';
  if (sub === 'status' || sub === 'diff' || sub === 'log') return sub;
  if (sub === 'branch' && verdict.cls === 'read' && !on(p, 'show-current')) return 'branch';
  return 'none';
}

/** The whole decision for one call. */
export function plan(words: readonly string[], facts: GitFacts): Plan {
  const at = locate(words);
  const parsed = parseArgs(at.args, at.options);
  // fetch cannot be kept from the repository's uploadpack by configuration (the first value wins), only by this option.
  const inject =
    at.command[0] === 'fetch' && repositoryUploadPack(facts.config) ? ['--upload-pack=git-upload-pack'] : [];
  const base = { globals: at.globals, command: at.command, args: at.args, parsed, inject };
  if (at.refused || !at.rule) return { ...base, verdict: at.refused ?? refuse('git', 'nothing to run'), json: 'none' };
  const never = neverAllowed(at, parsed);
  if (never) return { ...base, verdict: never, json: 'none' };
  // Where git's parse-options stops, lspq refuses: its reading of the words would be a guess past that point.
  if (parsed.stop)
    return {
      ...base,
      verdict: refuse(`git ${at.command.join(' ')} ${parsed.stop.raw}`, parsed.stop.because),
      json: 'none',
    };
  const verdict = at.rule(parsed, facts, at.command.join(' '));
  return { ...base, verdict, json: jsonKind(at.command, parsed, verdict) };
}

/** The refusal for a verdict the given flags do not allow, or undefined when it may run. */
export function refusal(verdict: Verdict, allowWrite: boolean, allowDestructive: boolean): string | undefined {
  const because = verdict.because ? `: ${verdict.because}` : '';
  switch (verdict.cls) {
    case 'read':
      return undefined;
    case 'write':
      return allowWrite || allowDestructive
        ? undefined
        : `${verdict.what} changes the repository${because}; add --allow-write to run it`;
    case 'destructive':
      return allowDestructive
        ? undefined
        : `${verdict.what} can lose work${because}; add --allow-destructive to run it`;
    case 'refused':
      return `${verdict.what} is never allowed by lspq git${because}`;
  }
}
