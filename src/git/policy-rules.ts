/**
 * The class of each subcommand that is allowed at all, read from its parsed
 * options and words the way git reads them. Each rule answers with the
 * words that decided it. Pure.
 */
import { has, occurrences, type ParsedArgs, type ParsedOption } from './grammar';
import { repositoryUploadPack } from './neutralize';
import type { GitClass, GitFacts, Verdict } from './types';

export type Rule = (p: ParsedArgs, facts: GitFacts, sub: string) => Verdict;

const verdict = (cls: GitClass, sub: string, detail?: string, because?: string): Verdict => ({
  cls,
  what: detail ? `git ${sub} ${detail}` : `git ${sub}`,
  ...(because ? { because } : {}),
});

/** The first option word that could be one of `names`, as written. */
function raw(p: ParsedArgs, ...names: string[]): string {
  for (const name of names) {
    const found: ParsedOption | undefined = occurrences(p, name)[0];
    if (found) return found.raw;
  }
  return `--${names[0]}`;
}

/** The first of `names` present, as written, or undefined. */
function any(p: ParsedArgs, ...names: string[]): string | undefined {
  return has(p, ...names) ? raw(p, ...names.filter((n) => has(p, n))) : undefined;
}

const readAlways: Rule = (_p, _f, sub) => verdict('read', sub);
const writeAlways: Rule = (_p, _f, sub) => verdict('write', sub);

/** Options that end a sequencer (merge, rebase, cherry-pick, revert) by throwing its work away. */
function sequencer(...discarding: string[]): Rule {
  return (p, _f, sub) => {
    const flag = any(p, ...discarding);
    return flag
      ? verdict('destructive', sub, flag, 'it resets the work tree and drops what the operation changed so far')
      : verdict('write', sub);
  };
}

/** `+src:dst` forces, `:dst` deletes: for push both lose work on the remote. */
function pushRefspecVerdict(spec: string, sub: string): Verdict | undefined {
  if (spec.startsWith('+')) return verdict('destructive', sub, spec, 'a leading + forces the update');
  if (spec.startsWith(':')) return verdict('destructive', sub, spec, 'an empty source deletes the remote ref');
  return undefined;
}

/** Remote config that turns a plain push into a mirror or forced push. */
function pushForcedByConfig(facts: GitFacts, remote: string | undefined): string | undefined {
  for (const { key, value } of facts.config) {
    const m = /^remote\.(.+)\.(mirror|push)$/.exec(key);
    if (!m || (remote !== undefined && m[1] !== remote)) continue;
    if (m[2] === 'mirror' && value !== null && /^(true|yes|on|1)$/i.test(value)) return `remote.${m[1]}.mirror`;
    if (m[2] === 'push' && value?.startsWith('+')) return `remote.${m[1]}.push=${value}`;
    if (m[2] === 'push' && value?.startsWith(':')) return `remote.${m[1]}.push=${value}`;
  }
  return undefined;
}

const push: Rule = (p, facts, sub) => {
  const flag = any(p, 'force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune');
  if (flag) return verdict('destructive', sub, flag, 'it can overwrite or delete refs on the remote');
  const [remote, ...refspecs] = p.positionals;
  for (const spec of refspecs) {
    const v = pushRefspecVerdict(spec, sub);
    if (v) return v;
  }
  // A configured remote: its own settings count; a URL: none; no remote given: any remote's could apply.
  const isUrl = remote !== undefined && !facts.config.some((e) => e.key.startsWith(`remote.${remote}.`));
  const byConfig = isUrl ? undefined : pushForcedByConfig(facts, remote);
  if (byConfig)
    return verdict('destructive', sub, undefined, `${byConfig} in the configuration makes it force or mirror`);
  return verdict('write', sub);
};

const pull: Rule = (p, _f, sub) => {
  const flag = any(p, 'force');
  if (flag) return verdict('destructive', sub, flag, 'it lets fetch overwrite local refs');
  for (const spec of p.positionals.slice(1)) {
    if (spec.startsWith('+') && spec.includes(':'))
      return verdict('destructive', sub, spec, 'a leading + forces the update of a local ref');
  }
  return verdict('write', sub);
};

const fetch: Rule = (p, facts, sub) => {
  for (const o of [
    ...occurrences(p, 'recurse-submodules'),
    ...occurrences(p, 'recurse-submodules-default'),
    ...occurrences(p, 'submodule-prefix'),
  ]) {
    if (o.value !== 'no')
      return verdict('refused', sub, o.raw, 'it runs git in submodules, whose own configuration lspq cannot vet');
  }
  const uploadPack = repositoryUploadPack(facts.config);
  if (uploadPack && has(p, 'all', 'multiple'))
    return verdict(
      'refused',
      sub,
      any(p, 'all', 'multiple'),
      `the repository's ${uploadPack} names a program to run; fetch one remote at a time`,
    );
  const flag = any(p, 'force', 'update-head-ok');
  if (flag) return verdict('destructive', sub, flag, 'it lets fetch overwrite local branches');
  const refspecs = has(p, 'all', 'multiple') ? [] : p.positionals.slice(1);
  const refmaps = occurrences(p, 'refmap').map((o) => o.value ?? '');
  for (const spec of [...refspecs, ...refmaps]) {
    if (!spec.includes(':') || spec.endsWith(':')) continue;
    if (spec.startsWith('+')) return verdict('destructive', sub, spec, 'a leading + forces the update of a local ref');
    if (has(p, 'prune'))
      return verdict('destructive', sub, `${raw(p, 'prune')} ${spec}`, 'it deletes local refs missing on the remote');
  }
  const writes =
    refspecs.find((s) => s.includes(':') && !s.endsWith(':')) ??
    any(p, 'set-upstream') ??
    refmaps.find((s) => s.includes(':'));
  if (writes) return verdict('write', sub, writes, 'it updates local refs or configuration');
  return verdict('read', sub);
};

const branch: Rule = (p, _f, sub) => {
  const force = any(p, 'force');
  if (has(p, 'delete', 'D')) {
    if (has(p, 'D') || force)
      return verdict(
        'destructive',
        sub,
        any(p, 'D') ?? `${raw(p, 'delete')} ${force}`,
        'it deletes a branch even if it is not merged',
      );
    return verdict('write', sub, raw(p, 'delete'));
  }
  if (has(p, 'move', 'M', 'copy', 'C')) {
    const hard = any(p, 'M', 'C');
    if (hard || force) return verdict('destructive', sub, hard ?? force, 'it overwrites an existing branch');
    return verdict('write', sub, any(p, 'move', 'copy'));
  }
  const change = any(p, 'set-upstream-to', 'unset-upstream', 'edit-description', 'set-upstream');
  if (change) return verdict('write', sub, change);
  if (has(p, 'show-current')) return verdict('read', sub);
  const filters = has(p, 'contains', 'no-contains', 'with', 'without', 'merged', 'no-merged', 'points-at', 'verbose');
  if (has(p, 'list') || filters || p.positionals.length === 0) return verdict('read', sub);
  if (force) return verdict('destructive', sub, force, 'it resets an existing branch');
  return verdict('write', sub, p.positionals[0]);
};

const tag: Rule = (p, _f, sub) => {
  if (has(p, 'delete'))
    return verdict('destructive', sub, raw(p, 'delete'), 'a deleted tag has no reflog to restore it from');
  if (has(p, 'verify')) return verdict('read', sub);
  if (has(p, 'list') || p.positionals.length === 0) return verdict('read', sub);
  const force = any(p, 'force');
  if (force) return verdict('destructive', sub, force, 'it replaces an existing tag');
  return verdict('write', sub, p.positionals[0]);
};

const checkout: Rule = (p, facts, sub) => {
  const forced = any(p, 'force', 'B');
  if (forced) return verdict('destructive', sub, forced, 'it throws away local changes or resets a branch');
  const patch = any(p, 'patch', 'pathspec-from-file');
  if (patch) return verdict('destructive', sub, patch, 'it overwrites files in the work tree');
  if (p.paths.length > 0)
    return verdict(
      'destructive',
      sub,
      `-- ${p.paths.join(' ')}`,
      'it overwrites files in the work tree with their committed content',
    );
  if (has(p, 'b', 'orphan')) return verdict('write', sub, any(p, 'b', 'orphan'));
  if (p.positionals.length > 1)
    return verdict('destructive', sub, p.positionals.join(' '), 'it overwrites files in the work tree');
  const [name] = p.positionals;
  // '-' is git's name for the previous branch, never a file.
  if (name === undefined || name === '-' || p.dashDash || facts.commits.has(name)) return verdict('write', sub, name);
  return verdict(
    'destructive',
    sub,
    name,
    `'${name}' is not a branch or commit, so git would overwrite the file of that name (use 'lspq git switch' for branches)`,
  );
};

const switchRule: Rule = (p, _f, sub) => {
  const flag = any(p, 'force-create', 'force', 'discard-changes');
  if (flag) return verdict('destructive', sub, flag, 'it throws away local changes or resets a branch');
  return verdict('write', sub);
};

const restore: Rule = (p, _f, sub) => {
  if (has(p, 'worktree') || !has(p, 'staged')) {
    return verdict(
      'destructive',
      sub,
      any(p, 'worktree') ?? p.paths.concat(p.positionals).join(' '),
      'it overwrites files in the work tree',
    );
  }
  return verdict('write', sub, raw(p, 'staged'));
};

const reset: Rule = (p, _f, sub) => {
  const flag = any(p, 'hard', 'merge');
  if (flag) return verdict('destructive', sub, flag, 'it throws away changes in the work tree');
  return verdict('write', sub);
};

const clean: Rule = (p, _f, sub) => {
  if (has(p, 'dry-run') && !has(p, 'interactive')) return verdict('read', sub, raw(p, 'dry-run'));
  return verdict('destructive', sub, any(p, 'force', 'interactive'), 'it deletes untracked files');
};

const commit: Rule = (p, _f, sub) => {
  const amend = any(p, 'amend');
  if (amend) return verdict('destructive', sub, amend, 'it rewrites the last commit');
  return verdict('write', sub);
};

/** `git stash` with its own subcommands; a first word that is an option means `push`. */
export const STASH: Record<string, Rule> = {
  list: readAlways,
  show: readAlways,
  push: writeAlways,
  save: writeAlways,
  pop: writeAlways,
  apply: writeAlways,
  store: writeAlways,
  create: writeAlways,
  branch: writeAlways,
  drop: (_p, _f, sub) => verdict('destructive', sub, undefined, 'a dropped stash is gone'),
  clear: (_p, _f, sub) => verdict('destructive', sub, undefined, 'dropped stashes are gone'),
};

/** `git remote` lists or shows; changing remotes is not part of the policy. */
export const REMOTE: Record<string, Rule> = {
  '': readAlways,
  show: (p, facts, sub) => {
    const uploadPack = repositoryUploadPack(facts.config);
    if (uploadPack && !has(p, 'n'))
      return verdict(
        'refused',
        sub,
        undefined,
        `the repository's ${uploadPack} names a program to run; use 'lspq git remote show -n' or 'lspq git fetch'`,
      );
    return verdict('read', sub);
  },
  'get-url': readAlways,
};

export const READS = [
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'rev-parse',
  'ls-files',
  'grep',
  'describe',
  'shortlog',
];

export const RULES: Record<string, Rule> = {
  ...Object.fromEntries(READS.map((name) => [name, readAlways])),
  fetch,
  branch,
  tag,
  add: writeAlways,
  commit,
  switch: switchRule,
  checkout,
  restore,
  reset,
  clean,
  merge: sequencer('abort'),
  rebase: sequencer('abort', 'skip'),
  'cherry-pick': sequencer('abort', 'skip'),
  revert: sequencer('abort', 'skip'),
  pull,
  push,
};
