/** Shapes shared by the git policy, the runner and the parsers. */
import type { ParsedArgs } from './grammar';

export type GitClass = 'read' | 'write' | 'destructive' | 'refused';

/** One line of `git config --list --show-scope`: the scope says whose configuration it is. */
export interface ConfigEntry {
  scope: string;
  key: string;
  value: string | null;
}

/** What the policy needs to know about the repository, gathered by read-only git calls beforehand. */
export interface GitFacts {
  /** Names (of those the policy asked about) that are commits: `checkout NAME` then switches branches. */
  commits: ReadonlySet<string>;
  config: readonly ConfigEntry[];
}

export interface Verdict {
  cls: GitClass;
  /** The words that decided the class, as the user wrote them: `git push --force`. */
  what: string;
  /** Why, when the words alone do not say it. */
  because?: string;
}

/** Which parsed JSON shape a call has, if any. */
export type JsonKind = 'status' | 'diff' | 'log' | 'branch' | 'none';

export interface Plan {
  verdict: Verdict;
  /** Global options the user gave (only harmless ones survive the policy). */
  globals: string[];
  /** The subcommand words: `['status']`, `['stash', 'show']`. */
  command: string[];
  /** The words after them. */
  args: string[];
  parsed: ParsedArgs;
  /** Options lspq adds for this repository, after its usual safety options. */
  inject: string[];
  json: JsonKind;
}
