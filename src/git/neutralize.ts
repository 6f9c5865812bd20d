/**
 * The configuration and environment that keep git from starting programs
 * or waiting for input. Every call gets no pager, no editor and no prompt.
 * Read calls also get nothing the repository's own configuration names:
 * values set in the repository (scope local or worktree) for a
 * program-running key are replaced by the user's own value (system, global
 * or command-line scope) or by git's default. Pure.
 */
import type { ConfigEntry, GitClass } from './types';

export interface Neutralized {
  /** Config pairs, applied after every other source (they win). */
  config: Array<[string, string]>;
  env: Record<string, string>;
}

const TRUSTED_SCOPES = new Set(['system', 'global', 'command']);
/** The user's own configuration, as opposed to the repository's (local, worktree). */
export const trusted = (e: ConfigEntry): boolean => TRUSTED_SCOPES.has(e.scope);

/**
 * remote.<name>.uploadpack set by the repository. The first value wins for
 * this key, so configuration cannot override it: fetch gets --upload-pack
 * instead, and what cannot take that option is refused.
 */
export function repositoryUploadPack(entries: readonly ConfigEntry[]): string | undefined {
  return entries.find((e) => /^remote\..+\.uploadpack$/.test(e.key) && !trusted(e))?.key;
}

/** ssh that fails instead of asking for a password or a host key. */
export const BATCH_SSH = 'ssh -o BatchMode=yes';

/** Single-valued keys that name a program, with git's own default. */
const PROGRAM_KEYS: Array<[RegExp, string]> = [
  [/^gpg\.program$/, 'gpg'],
  [/^gpg\.openpgp\.program$/, 'gpg'],
  [/^gpg\.x509\.program$/, 'gpgsm'],
  [/^gpg\.ssh\.program$/, 'ssh-keygen'],
  [/^core\.sshcommand$/, BATCH_SSH],
  [/^core\.askpass$/, ''],
  // Only ever run for alternates; `true` just advertises no extra tips.
  [/^core\.alternaterefscommand$/, 'true'],
  [/^filter\..+\.(clean|smudge|process)$/, ''],
];

/** Keys that cannot run a program on reads whatever their scope, because lspq also passes --no-ext-diff and --no-textconv: blanked anyway, so a call lspq forgot to guard fails instead of running. */
const DIFF_DRIVER = /^diff\..+\.(command|textconv)$/;

const ALWAYS_READ: Array<[string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hookspath', '/dev/null'],
  ['diff.external', ''],
  ['log.showsignature', 'false'],
  ['protocol.ext.allow', 'never'],
  ['status.submodulesummary', 'false'],
  ['submodule.recurse', 'false'],
  ['fetch.recursesubmodules', 'false'],
  ['maintenance.auto', 'false'],
  ['gc.auto', '0'],
  ['http.savecookies', 'false'],
];

/** The value a read call uses for each program key set in the repository: the user's own, or git's default. */
function programOverrides(entries: readonly ConfigEntry[]): Array<[string, string]> {
  const last = new Map<string, ConfigEntry>();
  const lastTrusted = new Map<string, string>();
  for (const e of entries) {
    last.set(e.key, e);
    if (trusted(e) && e.value !== null) lastTrusted.set(e.key, e.value);
  }
  const out: Array<[string, string]> = [];
  const blankedFilters = new Set<string>();
  for (const [key, e] of last) {
    if (DIFF_DRIVER.test(key)) {
      out.push([key, '']);
      continue;
    }
    if (trusted(e)) continue;
    const rule = PROGRAM_KEYS.find(([re]) => re.test(key));
    if (!rule) continue;
    const value = lastTrusted.get(key) ?? rule[1];
    out.push([key, value]);
    const filter = /^filter\.(.+)\.[a-z]+$/.exec(key);
    if (filter && value === '') blankedFilters.add(filter[1] as string);
  }
  // A required filter that does not run is an error; a blanked one must not be required.
  for (const name of blankedFilters) out.push([`filter.${name}.required`, 'false']);
  return out;
}

/** credential.helper is a list: reset it, then add back only the user's own helpers. */
function credentialOverrides(entries: readonly ConfigEntry[]): Array<[string, string]> {
  const helpers = entries.filter((e) => /^credential\.(.+\.)?helper$/.test(e.key));
  if (helpers.every(trusted)) return [];
  const kept = helpers
    .filter((e) => trusted(e) && e.value !== null)
    .map((e): [string, string] => [e.key, e.value as string]);
  return [['credential.helper', ''], ...kept];
}

/** diff.submodule=diff runs `git diff` inside submodules, with their configuration. */
function submoduleDiff(entries: readonly ConfigEntry[]): Array<[string, string]> {
  const last = entries.filter((e) => e.key === 'diff.submodule').at(-1);
  return last?.value === 'diff' ? [['diff.submodule', 'log']] : [];
}

export function neutralize(
  entries: readonly ConfigEntry[],
  cls: GitClass,
  env: Record<string, string | undefined>,
): Neutralized {
  const out: Neutralized = {
    config: [['core.pager', 'cat']],
    env: {
      GIT_TERMINAL_PROMPT: '0',
      GIT_PAGER: 'cat',
      PAGER: 'cat',
      // ':' is git's own "no editor": it skips launching one, so nothing waits for input.
      GIT_EDITOR: ':',
      GIT_SEQUENCE_EDITOR: ':',
    },
  };
  const userSsh = env.GIT_SSH_COMMAND !== undefined || env.GIT_SSH !== undefined;
  const sshEntries = entries.filter((e) => e.key === 'core.sshcommand');
  if (!userSsh && sshEntries.length === 0) out.config.push(['core.sshcommand', BATCH_SSH]);
  if (cls !== 'read') return out;

  out.env.GIT_OPTIONAL_LOCKS = '0';
  out.config.push(
    ...ALWAYS_READ,
    ...programOverrides(entries),
    ...credentialOverrides(entries),
    ...submoduleDiff(entries),
  );
  // core.gitProxy takes the first match, so config cannot override it; an empty GIT_PROXY_COMMAND can.
  if (env.GIT_PROXY_COMMAND === undefined && entries.some((e) => e.key === 'core.gitproxy' && !trusted(e)))
    out.env.GIT_PROXY_COMMAND = '';
  return out;
}

/** Shell single quotes, the way git writes GIT_CONFIG_PARAMETERS. */
function sq(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * The pairs as GIT_CONFIG_PARAMETERS, after whatever the caller's
 * environment already holds: git reads them last, so they win, and child
 * gits (hooks, submodules) inherit them. Unlike `-c`, keys may contain '='.
 */
export function configParameters(pairs: ReadonlyArray<[string, string]>, existing: string | undefined): string {
  const ours = pairs.map(([k, v]) => `${sq(k)}=${sq(v)}`).join(' ');
  return existing ? `${existing} ${ours}` : ours;
}
