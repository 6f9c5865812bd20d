/**
 * git's own option grammar (parse-options.c), reproduced so that the policy
 * sees what git will do: a long option is its exact name, `--no-` of it, or
 * a unique prefix of either (an ambiguous prefix stops git); short letters
 * bundle (`-fdx`) until one takes a value (`-mmsg`, `-m msg`); `--` and
 * `--end-of-options` end the options; and once every word is read, the last
 * of `--x` / `--no-x` is what git acts on. Pure.
 */

/** How an option takes its value: none, always (attached or the next word), only attached, or the next word unless it is the last. */
export type Arity = 'none' | 'required' | 'optional' | 'last-default';

export interface OptionSpec {
  short?: string;
  long?: string;
  arity: Arity;
  /** False for git's PARSE_OPT_NONEG: `--no-x` stops git. */
  negatable: boolean;
  /** Options that set one variable in git (reset's modes): the last one given holds it, and `--no-` of any clears it. */
  group?: string;
  /** git's OPT_CMDMODE: two different options of the group stop git. */
  exclusive: boolean;
}

export interface OptionTable {
  specs: readonly OptionSpec[];
  /** Every option git's parse-options knows for the command: an unknown or ambiguous word stops git, so lspq refuses it. */
  whole: boolean;
  /** PARSE_OPT_KEEP_DASHDASH: the command sees `--` itself (paths follow), and keeps `--end-of-options` as a word. */
  keepDashDash: boolean;
  /** PARSE_OPT_KEEP_UNKNOWN_OPT: no abbreviations; unknown options go on to the revision walker. */
  keepUnknown: boolean;
}

export type TableFlag = 'partial' | 'keep-dashdash' | 'keep-unknown';

const WORD = /^([^|]?)\|([a-z0-9-]*)(=\?|=\*|=)?(!)?(?:([@%])([a-z-]+))?$/;
const ARITIES: Record<string, Arity> = { '': 'none', '=': 'required', '=?': 'optional', '=*': 'last-default' };

/**
 * A table from a compact notation, one option per word: `f|force` (both
 * names), `m|message=` (a value: attached or the next word), `|track=?`
 * (a value only when attached), `|contains=*` (the next word, unless it is
 * the last), `D|` (short only); `!` after it: no `--no-` form; `@mode`:
 * shares git's variable with the other `@mode` options; `%mode`: the same,
 * and two different ones stop git (OPT_CMDMODE).
 */
export function table(notation: string, ...flags: TableFlag[]): OptionTable {
  const specs = notation
    .split(/\s+/)
    .filter(Boolean)
    .map((word): OptionSpec => {
      const m = WORD.exec(word);
      if (!m) throw new Error(`bad option notation '${word}'`);
      const [, short, long, arity = '', noneg, kind, group] = m;
      return {
        ...(short ? { short } : {}),
        ...(long ? { long } : {}),
        arity: ARITIES[arity] ?? 'none',
        negatable: !noneg && Boolean(long) && kind !== '%',
        ...(group ? { group } : {}),
        exclusive: kind === '%',
      };
    });
  return {
    specs,
    whole: !flags.includes('partial'),
    keepDashDash: flags.includes('keep-dashdash') || flags.includes('partial'),
    keepUnknown: flags.includes('keep-unknown'),
  };
}

/** A partial table with more options: read commands share the log and diff ones. */
export const joinTables = (a: OptionTable, b: OptionTable): OptionTable => ({ ...a, specs: [...a.specs, ...b.specs] });

/** The name rules match on: the long name, or the short letter when there is none. */
export const nameOf = (spec: OptionSpec): string => spec.long ?? spec.short ?? '';

/** Where a group or a plain option keeps its setting. */
const keyOf = (spec: OptionSpec): string => spec.group ?? nameOf(spec);

export interface ParsedOption {
  /** As written, for messages: `--dry`, or one letter of a bundle as `-n`. */
  raw: string;
  /** The option git takes it for; empty when the table does not have it (or, in a partial table, cannot tell which). */
  name: string;
  negated: boolean;
  value?: string;
}

/** Where git's parse-options would stop with an error (it runs nothing then): the word, and why, in lspq's words. */
export interface ParseStop {
  raw: string;
  because: string;
}

/** What one option (or one group) comes to once git has read every word. */
export interface Setting {
  on: boolean;
  /** The option of a group that holds it. */
  holder: string;
  /** The word that last set it, as written. */
  raw: string;
  /** The last word's value, when it had one. */
  value?: string;
  /** Every value since the last `--no-` (list options append). */
  values: string[];
}

export interface ParsedArgs {
  options: ParsedOption[];
  /** Non-option words, and (when git hides `--` from the command) the words after it. */
  positionals: string[];
  /** Words after a `--` that the command sees: paths for git. */
  paths: string[];
  dashDash: boolean;
  /** Where options end in the word list (`--`, `--end-of-options` or the end): lspq inserts its own options there. */
  insertAt: number;
  /** Keyed by option name, or by group for options that share git's variable. */
  settings: ReadonlyMap<string, Setting>;
  /** Each grouped option's group, to find its setting. */
  groups: ReadonlyMap<string, string>;
  stop?: ParseStop;
}

interface Resolved {
  spec: OptionSpec;
  unset: boolean;
  value?: string;
}

type LongResult =
  | { kind: 'match'; found: Resolved }
  | { kind: 'ambiguous'; one: string; other: string }
  | { kind: 'unknown' };

const spelled = (r: Resolved): string => `--${r.unset ? 'no-' : ''}${r.spec.long ?? ''}`;

/** parse_long_opt: `arg` is the word without its `--`. Exact names win; else one abbreviation, of the name or of its negation. */
function resolveLong(arg: string, options: OptionTable): LongResult {
  const eq = arg.indexOf('=');
  const key = eq < 0 ? arg : arg.slice(0, eq);
  let abbrev: Resolved | undefined;
  let ambiguous: Resolved | undefined;
  let attached: string | undefined;
  const abbreviated = (spec: OptionSpec, unset: boolean, nameUnset: boolean): void => {
    if (abbrev) ambiguous = abbrev;
    if (!unset && eq >= 0) attached = arg.slice(eq + 1);
    abbrev = { spec, unset: unset !== nameUnset };
  };
  for (const spec of options.specs) {
    if (!spec.long) continue;
    let name = spec.long;
    // `--verify` is the negation of an option declared `no-verify`: git strips the `no-` and tries again.
    let nameUnset = false;
    for (;;) {
      let unset = false;
      let rest = arg.startsWith(name) ? arg.slice(name.length) : undefined;
      if (rest === undefined) {
        if (!options.keepUnknown && name.startsWith(key)) {
          abbreviated(spec, unset, nameUnset);
          break;
        }
        if (!spec.negatable) break;
        if ('no-'.startsWith(arg)) {
          abbreviated(spec, true, nameUnset);
          break;
        }
        if (!arg.startsWith('no-')) {
          if (name.startsWith('no-')) {
            name = name.slice(3);
            nameUnset = true;
            continue;
          }
          break;
        }
        unset = true;
        const negated = arg.slice(3);
        if (!negated.startsWith(name)) {
          if (name.startsWith(negated)) abbreviated(spec, true, nameUnset);
          break;
        }
        rest = negated.slice(name.length);
      }
      if (rest !== '' && !rest.startsWith('=')) break;
      const value = rest.startsWith('=') ? rest.slice(1) : attached;
      return { kind: 'match', found: { spec, unset: unset !== nameUnset, ...(value !== undefined ? { value } : {}) } };
    }
  }
  if (ambiguous && abbrev) return { kind: 'ambiguous', one: spelled(ambiguous), other: spelled(abbrev) };
  if (abbrev) return { kind: 'match', found: { ...abbrev, ...(attached !== undefined ? { value: attached } : {}) } };
  return { kind: 'unknown' };
}

/** The mutable state of one parse: the words, where it is, and what it found. */
class Reader {
  readonly parsed: ParsedArgs;
  private readonly settings = new Map<string, Setting>();
  i = 0;

  constructor(
    readonly words: readonly string[],
    readonly options: OptionTable,
  ) {
    this.parsed = {
      options: [],
      positionals: [],
      paths: [],
      dashDash: false,
      insertAt: words.length,
      settings: this.settings,
      groups: new Map(options.specs.flatMap((s) => (s.group ? [[nameOf(s), s.group] as const] : []))),
    };
  }

  stop(raw: string, because: string): void {
    this.parsed.stop ??= { raw, because };
  }

  /** The next word as a value, when there is one. */
  private next(): string | undefined {
    if (this.i + 1 >= this.words.length) return undefined;
    this.i++;
    return this.words[this.i];
  }

  /**
   * get_value: checks git makes before it sets anything, the value taken
   * (attached, or the next word), and the setting it leaves. `attached` is
   * the rest of a short bundle or what followed `=`. Returns false where git
   * stops.
   */
  take(raw: string, spec: OptionSpec, unset: boolean, attached: string | undefined, short: boolean): boolean {
    const shown = short ? raw : unset ? `--no-${spec.long ?? ''}` : `--${spec.long ?? ''}`;
    if (unset && attached !== undefined) return this.fail(raw, `${shown} takes no value; drop '=${attached}'`);
    if (unset && !spec.negatable) return this.fail(raw, `git has no --no- form of --${spec.long ?? ''}; leave it out`);
    if (!short && attached !== undefined && spec.arity === 'none')
      return this.fail(raw, `${shown} takes no value; drop '=${attached}'`);
    const key = keyOf(spec);
    const held = this.settings.get(key);
    if (spec.exclusive && held?.on && held.holder !== nameOf(spec))
      return this.fail(raw, `git takes one of ${held.raw} and ${raw}, not both; give one of them`);
    let value: string | undefined;
    if (!unset && spec.arity !== 'none') {
      value = attached;
      if (value === undefined && (spec.arity === 'required' || spec.arity === 'last-default')) {
        value = this.next();
        if (value === undefined && spec.arity === 'required')
          return this.fail(raw, `${shown} needs a value; write ${short ? `${raw} VALUE` : `${shown}=VALUE`}`);
      }
    }
    this.parsed.options.push({ raw, name: nameOf(spec), negated: unset, ...(value !== undefined ? { value } : {}) });
    const values = unset ? [] : [...(held?.on && held.holder === nameOf(spec) ? held.values : [])];
    if (value !== undefined) values.push(value);
    this.settings.set(key, {
      on: !unset,
      holder: nameOf(spec),
      raw,
      ...(value !== undefined ? { value } : {}),
      values,
    });
    return true;
  }

  fail(raw: string, because: string): false {
    this.stop(raw, because);
    return false;
  }

  /** An option word the table does not have: git stops on it, or (partial tables, keep-unknown) passes it on. */
  unknown(raw: string): void {
    this.parsed.options.push({ raw, name: '', negated: false });
    if (this.options.whole)
      this.stop(
        raw,
        this.options.keepUnknown
          ? `lspq cannot tell what ${raw} does here (git passes options it does not know to the revision walker, unabbreviated); write the option in full, or leave it out`
          : `${raw} is not an option lspq knows git to have here (the list is git 2.39's); write it in full as git's documentation spells it, or leave it out`,
      );
  }
}

/** parse_long_opt and get_value for one `--word`. */
function readLong(r: Reader, word: string): void {
  const result = resolveLong(word.slice(2), r.options);
  if (result.kind === 'match') {
    const { spec, unset, value } = result.found;
    r.take(word, spec, unset, value, false);
    return;
  }
  if (result.kind === 'ambiguous' && r.options.whole) {
    r.parsed.options.push({ raw: word, name: '', negated: false });
    r.stop(
      word,
      `git reads it as an abbreviation of both ${result.one} and ${result.other} and stops; write the option out in full`,
    );
    return;
  }
  r.unknown(word);
}

/** git's check_typos: a bundle that spells a long option (`-force`) stops git rather than run its letters. */
function typo(letters: string, options: OptionTable): boolean {
  if (letters.length < 3) return false;
  return letters.startsWith('no-') || options.specs.some((s) => s.long?.startsWith(letters));
}

/** parse_short_opt over a bundle: `-fdx`, `-mmsg`, `-m msg`, `-n5`. */
function readShorts(r: Reader, word: string): void {
  const letters = word.slice(1);
  for (let k = 0; k < letters.length; k++) {
    const letter = letters.charAt(k);
    const spec = r.options.specs.find((o) => o.short === letter);
    const rest = letters.slice(k + 1);
    if (!spec) {
      if (k === 0 && rest && r.options.whole && typo(letters, r.options)) {
        r.stop(word, `git stops at it (did you mean --${letters}?); write a long option with two dashes`);
        return;
      }
      r.unknown(`-${letter}`);
      if (r.options.whole) return;
      continue;
    }
    const takesRest = spec.arity !== 'none' && rest !== '';
    if (!r.take(`-${letter}`, spec, false, takesRest ? rest : undefined, true)) return;
    if (spec.arity !== 'none') return;
    if (k === 0 && rest && r.options.whole && typo(letters, r.options)) {
      r.stop(word, `git stops at it (did you mean --${letters}?); write a long option with two dashes`);
      return;
    }
  }
}

/**
 * Parses the words after the subcommand as git's parse-options does. With a
 * partial table (read commands), options it does not know are kept with no
 * name and no value, so the next word is still examined as an option: a
 * misreading can only make lspq stricter.
 */
export function parseArgs(words: readonly string[], options: OptionTable): ParsedArgs {
  const r = new Reader(words, options);
  const parsed = r.parsed;
  let ended = false;
  for (; r.i < words.length; r.i++) {
    const word = words[r.i] as string;
    if (ended) {
      // The revision walker (partial tables) still takes a `--` after `--end-of-options` as the start of paths.
      if (word === '--' && !options.whole && !parsed.dashDash) parsed.dashDash = true;
      else (options.keepDashDash && parsed.dashDash ? parsed.paths : parsed.positionals).push(word);
      continue;
    }
    if (word === '-' || !word.startsWith('-')) {
      parsed.positionals.push(word);
      continue;
    }
    if (word === '--' || word === '--end-of-options') {
      parsed.insertAt = r.i;
      ended = true;
      if (word === '--') parsed.dashDash = true;
      // git 2.39 keeps --end-of-options as a word here, where the command then reads it as a name or a path.
      if (word === '--end-of-options' && options.keepDashDash && options.whole)
        r.stop(word, 'git keeps --end-of-options here as a word (a path or a name); write -- before paths instead');
      continue;
    }
    if (word.startsWith('--')) readLong(r, word);
    else readShorts(r, word);
  }
  return parsed;
}

/** The setting of option `name` once git has read every word, when it is on; a group member only while it holds the group. */
export function setting(parsed: ParsedArgs, name: string): Setting | undefined {
  const held = parsed.settings.get(parsed.groups.get(name) ?? name);
  return held?.on && held.holder === name ? held : undefined;
}

/** True when one of `names` is on once git has read every word. */
export const on = (parsed: ParsedArgs, ...names: string[]): boolean => names.some((n) => setting(parsed, n));

/** The word that left the first of `names` that is on, as written. */
export function onAs(parsed: ParsedArgs, ...names: string[]): string | undefined {
  for (const name of names) {
    const held = setting(parsed, name);
    if (held) return held.raw;
  }
  return undefined;
}
