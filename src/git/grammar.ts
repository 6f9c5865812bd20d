/**
 * git's own option grammar (parse-options), reproduced so that the policy
 * sees what git will see: long options abbreviated to a unique prefix
 * (`--forc`), `--no-` negations, combined short flags (`-fd`, `-am msg`),
 * values attached or in the next word, `--` and `--end-of-options`. Pure.
 */

export type Arity = 'none' | 'required' | 'optional';

export interface OptionSpec {
  short?: string;
  long?: string;
  arity: Arity;
}

export type OptionTable = readonly OptionSpec[];

/**
 * A table from a compact notation, one option per word: `f|force` (a flag
 * with both names), `m|message=` (takes a value), `|track=?` (long only,
 * optional value: only attached with `=`), `D|` (short only).
 */
export function table(notation: string): OptionTable {
  return notation
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const arity: Arity = word.endsWith('=?') ? 'optional' : word.endsWith('=') ? 'required' : 'none';
      const [short, long] = word.replace(/=\??$/, '').split('|');
      return { ...(short ? { short } : {}), ...(long ? { long } : {}), arity };
    });
}

/** The name rules match on: the long name, or the short letter when there is none. */
export const nameOf = (spec: OptionSpec): string => spec.long ?? spec.short ?? '';

export interface Meaning {
  name: string;
  negated: boolean;
}

export interface ParsedOption {
  /** As written, for messages. */
  raw: string;
  /** Every option the word could be: one when git would accept it, several when the abbreviation is ambiguous, none when unknown. */
  meanings: Meaning[];
  value?: string;
}

export interface ParsedArgs {
  options: ParsedOption[];
  /** Non-option words before `--`. */
  positionals: string[];
  /** Words after `--`: always paths for git. */
  paths: string[];
  dashDash: boolean;
  /** Where options end in the word list (`--`, `--end-of-options` or the end): lspq inserts its own options there. */
  insertAt: number;
}

interface Candidate {
  spec: OptionSpec;
  negated: boolean;
}

/** How git reads `--body`: exact name, negation, or a unique prefix of either. */
function resolveLong(body: string, options: OptionTable): Candidate[] {
  const exact: Candidate[] = [];
  const prefix: Candidate[] = [];
  for (const spec of options) {
    const long = spec.long;
    if (!long) continue;
    const forms: Candidate[] = [
      { spec, negated: false },
      { spec, negated: true },
    ];
    for (const form of forms) {
      const written = form.negated ? (long.startsWith('no-') ? long.slice(3) : `no-${long}`) : long;
      if (written === body) exact.push(form);
      else if (written.startsWith(body)) prefix.push(form);
    }
  }
  if (exact.length > 0) return exact.slice(0, 1);
  return prefix;
}

function meaningsOf(candidates: Candidate[]): Meaning[] {
  return candidates.map((c) => ({ name: nameOf(c.spec), negated: c.negated }));
}

/**
 * Parses the words after the subcommand. Unknown options are kept (with no
 * meaning) and taken to have no value, so the next word is still examined
 * as an option: a misreading can only make lspq stricter.
 */
export function parseArgs(words: readonly string[], options: OptionTable): ParsedArgs {
  const parsed: ParsedArgs = { options: [], positionals: [], paths: [], dashDash: false, insertAt: words.length };
  let endOfOptions = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (parsed.dashDash) {
      parsed.paths.push(word);
      continue;
    }
    if (word === '--') {
      parsed.dashDash = true;
      if (!endOfOptions) parsed.insertAt = i;
      continue;
    }
    if (endOfOptions || word === '-' || !word.startsWith('-')) {
      parsed.positionals.push(word);
      continue;
    }
    if (word === '--end-of-options') {
      endOfOptions = true;
      parsed.insertAt = i;
      continue;
    }
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const body = eq < 0 ? word.slice(2) : word.slice(2, eq);
      const candidates = resolveLong(body, options);
      const option: ParsedOption = { raw: word, meanings: meaningsOf(candidates) };
      if (eq >= 0) option.value = word.slice(eq + 1);
      const only = candidates.length === 1 ? candidates[0] : undefined;
      if (eq < 0 && only && !only.negated && only.spec.arity === 'required' && i + 1 < words.length) {
        option.value = words[++i];
      }
      parsed.options.push(option);
      continue;
    }
    i = parseShorts(words, i, options, parsed);
  }
  return parsed;
}

/** `-fd`, `-am msg`, `-mmsg`, `-n5`: letters until one takes a value. Returns the last index used. */
function parseShorts(words: readonly string[], i: number, options: OptionTable, parsed: ParsedArgs): number {
  const word = words[i] as string;
  for (let k = 1; k < word.length; k++) {
    const letter = word[k] as string;
    const spec = options.find((o) => o.short === letter);
    const option: ParsedOption = { raw: `-${letter}`, meanings: spec ? [{ name: nameOf(spec), negated: false }] : [] };
    parsed.options.push(option);
    if (!spec || spec.arity === 'none') continue;
    const rest = word.slice(k + 1);
    if (rest) option.value = rest;
    else if (spec.arity === 'required' && i + 1 < words.length) option.value = words[++i];
    return i;
  }
  return i;
}

/** True when some word could be option `name` (not negated): ambiguity counts, the stricter reading. */
export function has(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => o.meanings.some((m) => !m.negated && names.includes(m.name)));
}

/** The option words that could be `name`, for their values. */
export function occurrences(parsed: ParsedArgs, name: string): ParsedOption[] {
  return parsed.options.filter((o) => o.meanings.some((m) => !m.negated && m.name === name));
}

/** The first option word that matches none of the table: its meaning is unknown to lspq. */
export function firstUnknown(parsed: ParsedArgs): ParsedOption | undefined {
  return parsed.options.find((o) => o.meanings.length === 0);
}
