/**
 * The class of each subcommand that is allowed at all, read from its
 * options as git leaves them once every word is read (the last of `--x` /
 * `--no-x`) and from its words, the way the subcommand itself then decides.
 * Each rule answers with the words that decided it. Pure.
 */
import { on, onAs, setting, type ParsedArgs } from './grammar';
import { repositoryUploadPack } from './neutralize';
import type { GitClass, GitFacts, Verdict } from './types';

export type Rule = (p: ParsedArgs, facts: GitFacts, sub: string) => Verdict;

const verdict = (cls: GitClass, sub: string, detail?: string, because?: string): Verdict => ({
  cls,
  what: detail ? `git ${sub} ${detail}` : `git ${sub}`,
  ...(because ? { because } : {}),
});

/** The word that left the first of `names` on, as written, or the long option when none is. */
const raw = (p: ParsedArgs, ...names: string[]): string => onAs(p, ...names) ?? `--${names[0]}`;

/** The words git gives the command after its options: `--` is git's own unless the command keeps it (then what follows is in paths). */
const argv = (p: ParsedArgs): string[] => [...p.positionals, ...p.paths];

const readAlways: Rule = (_p, _f, sub) => verdict('read', sub);
const writeAlways: Rule = (_p, _f, sub) => verdict('write', sub);

/** Options that end a sequencer (merge, rebase, cherry-pick, revert) by throwing its work away. */
function sequencer(...discarding: string[]): Rule {
  return (p, _f, sub) => {
    const flag = onAs(p, ...discarding);
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
  const flag = onAs(p, 'force', 'force-with-lease', 'force-if-includes', 'mirror', 'delete', 'prune');
  if (flag) return verdict('destructive', sub, flag, 'it can overwrite or delete refs on the remote');
  const [remote, ...refspecs] = argv(p);
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
  const flag = onAs(p, 'force');
  if (flag) return verdict('destructive', sub, flag, 'it lets fetch overwrite local refs');
  for (const spec of argv(p).slice(1)) {
    if (spec.startsWith('+') && spec.includes(':'))
      return verdict('destructive', sub, spec, 'a leading + forces the update of a local ref');
  }
  return verdict('write', sub);
};

const fetch: Rule = (p, facts, sub) => {
  for (const name of ['recurse-submodules', 'recurse-submodules-default', 'submodule-prefix']) {
    const held = setting(p, name);
    if (held && held.value !== 'no')
      return verdict('refused', sub, held.raw, 'it runs git in submodules, whose own configuration lspq cannot vet');
  }
  const uploadPack = repositoryUploadPack(facts.config);
  const many = onAs(p, 'all', 'multiple');
  if (uploadPack && many)
    return verdict(
      'refused',
      sub,
      many,
      `the repository's ${uploadPack} names a program to run; fetch one remote at a time`,
    );
  const flag = onAs(p, 'force', 'update-head-ok');
  if (flag) return verdict('destructive', sub, flag, 'it lets fetch overwrite local branches');
  const pruneTags = onAs(p, 'prune-tags');
  if (pruneTags)
    return verdict('destructive', sub, pruneTags, 'with pruning on, it deletes local tags missing on the remote');
  const refspecs = many ? [] : argv(p).slice(1);
  const refmaps = setting(p, 'refmap')?.values ?? [];
  for (const spec of [...refspecs, ...refmaps]) {
    if (!spec.includes(':') || spec.endsWith(':')) continue;
    if (spec.startsWith('+')) return verdict('destructive', sub, spec, 'a leading + forces the update of a local ref');
    if (on(p, 'prune'))
      return verdict('destructive', sub, `${raw(p, 'prune')} ${spec}`, 'it deletes local refs missing on the remote');
  }
  const writes =
    refspecs.find((s) => s.includes(':') && !s.endsWith(':')) ??
    onAs(p, 'set-upstream') ??
    refmaps.find((s) => s.includes(':'));
  if (writes) return verdict('write', sub, writes, 'it updates local refs or configuration');
  return verdict('read', sub);
};

/** The filters that make `git branch` and `git tag` list, whatever words follow. */
const LIST_FILTERS = ['contains', 'no-contains', 'with', 'without', 'merged', 'no-merged', 'points-at'];

/** cmd_branch: one action at most (delete, show-current, list, edit-description, copy, move, upstream), else create. */
const branch: Rule = (p, _f, sub) => {
  const words = argv(p);
  const force = onAs(p, 'force');
  const del = on(p, 'delete', 'D');
  const move = on(p, 'move', 'M');
  const copy = on(p, 'copy', 'C');
  const upstream = onAs(p, 'set-upstream-to', 'unset-upstream');
  const actions = { del, show: on(p, 'show-current'), edit: on(p, 'edit-description'), move, copy, upstream };
  const quiet = !Object.values(actions).some(Boolean) && words.length === 0;
  const list = on(p, 'list') || quiet || on(p, ...LIST_FILTERS);
  const count = Object.values(actions).filter(Boolean).length + (list ? 1 : 0);
  if (count > 1) return verdict('refused', sub, undefined, 'git branch takes one action at a time and stops; give one');
  if (del) {
    const hard = onAs(p, 'D');
    if (hard || force)
      return verdict(
        'destructive',
        sub,
        hard ?? `${raw(p, 'delete')} ${force}`,
        'it deletes a branch even if it is not merged',
      );
    return verdict('write', sub, raw(p, 'delete'));
  }
  if (actions.show || list) return verdict('read', sub);
  if (actions.edit) return verdict('write', sub, raw(p, 'edit-description'));
  if (move || copy) {
    const hard = onAs(p, 'M', 'C');
    if (hard || force) return verdict('destructive', sub, hard ?? force, 'it overwrites an existing branch');
    return verdict('write', sub, raw(p, 'move', 'copy'));
  }
  if (upstream) return verdict('write', sub, upstream);
  if (force) return verdict('destructive', sub, force, 'it resets an existing branch');
  return verdict('write', sub, words[0]);
};

/** cmd_tag: -l, -d or -v (one of them, or git stops); none means list when there is no name or a filter, else create. */
const tag: Rule = (p, _f, sub) => {
  const mode = onAs(p, 'list', 'delete', 'verify');
  if (on(p, 'delete')) return verdict('destructive', sub, mode, 'a deleted tag has no reflog to restore it from');
  if (mode) return verdict('read', sub);
  if (argv(p).length === 0 || on(p, 'n', ...LIST_FILTERS)) return verdict('read', sub);
  const force = onAs(p, 'force');
  if (force) return verdict('destructive', sub, force, 'it replaces an existing tag');
  return verdict('write', sub, argv(p)[0]);
};

const checkout: Rule = (p, facts, sub) => {
  const forced = onAs(p, 'force', 'B');
  if (forced) return verdict('destructive', sub, forced, 'it throws away local changes or resets a branch');
  const patch = onAs(p, 'patch', 'pathspec-from-file');
  if (patch) return verdict('destructive', sub, patch, 'it overwrites files in the work tree');
  if (p.paths.length > 0)
    return verdict(
      'destructive',
      sub,
      `-- ${p.paths.join(' ')}`,
      'it overwrites files in the work tree with their committed content',
    );
  const create = onAs(p, 'b', 'orphan');
  if (create) return verdict('write', sub, create);
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
  const flag = onAs(p, 'force-create', 'force', 'discard-changes');
  if (flag) return verdict('destructive', sub, flag, 'it throws away local changes or resets a branch');
  return verdict('write', sub);
};

const restore: Rule = (p, _f, sub) => {
  if (on(p, 'worktree') || !on(p, 'staged')) {
    return verdict(
      'destructive',
      sub,
      onAs(p, 'worktree') ?? argv(p).join(' '),
      'it overwrites files in the work tree',
    );
  }
  return verdict('write', sub, raw(p, 'staged'));
};

const reset: Rule = (p, _f, sub) => {
  const flag = onAs(p, 'hard', 'merge');
  if (flag) return verdict('destructive', sub, flag, 'it throws away changes in the work tree');
  return verdict('write', sub);
};

/** cmd_clean: -n reads (even with -f), -i asks, and anything else deletes (or stops for clean.requireForce). */
const clean: Rule = (p, _f, sub) => {
  if (on(p, 'dry-run') && !on(p, 'interactive')) return verdict('read', sub, raw(p, 'dry-run'));
  return verdict('destructive', sub, onAs(p, 'force', 'interactive'), 'it deletes untracked files');
};

const commit: Rule = (p, _f, sub) => {
  const amend = onAs(p, 'amend');
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
    if (uploadPack && !on(p, 'n'))
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
