/**
 * The options of the git subcommands whose class depends on them, as git
 * 2.39's parse-options knows them (hidden ones included), with what
 * changes how they are read: a value, no `--no-` form, a variable shared
 * with other options. test/unit/git-tables.test.ts checks them against
 * `git CMD --git-completion-helper-all` and `git CMD -h`. An option missing
 * here stops git, so lspq refuses it.
 */
import { joinTables, table, type OptionTable } from './grammar';

export const OPTIONS: Record<string, OptionTable> = {
  push: table(
    'v|verbose q|quiet |repo= |all |mirror d|delete |tags n|dry-run |porcelain f|force |force-with-lease=? |force-if-includes ' +
      '|recurse-submodules= |thin |receive-pack= |exec= u|set-upstream |progress |prune |no-verify |follow-tags |signed=? |atomic ' +
      'o|push-option= 4|ipv4@family 6|ipv6@family',
  ),
  fetch: table(
    'v|verbose q|quiet |all |set-upstream a|append |atomic |upload-pack= f|force m|multiple t|tags@tags n|@tags j|jobs= |prefetch ' +
      'p|prune P|prune-tags |recurse-submodules=? |dry-run |write-fetch-head k|keep u|update-head-ok |progress |depth= ' +
      '|shallow-since= |shallow-exclude= |deepen= |unshallow! |refetch! |submodule-prefix= |recurse-submodules-default= ' +
      '|update-shallow |refmap=! o|server-option= 4|ipv4@family 6|ipv6@family |negotiation-tip= |negotiate-only |filter= ' +
      '|auto-maintenance@gc |auto-gc@gc |show-forced-updates |write-commit-graph |stdin',
  ),
  pull: table(
    'v|verbose q|quiet |progress |recurse-submodules=? r|rebase=? n| |stat |summary |log=? |signoff=? |squash |commit |edit ' +
      '|cleanup= |ff |ff-only! |verify |verify-signatures |autostash s|strategy= X|strategy-option= S|gpg-sign=? ' +
      '|allow-unrelated-histories |all a|append |upload-pack= f|force t|tags p|prune j|jobs=? |dry-run k|keep |depth= ' +
      '|shallow-since= |shallow-exclude= |deepen= |unshallow! |update-shallow |refmap=! o|server-option= 4|ipv4 6|ipv6 ' +
      '|negotiation-tip= |show-forced-updates |set-upstream',
  ),
  branch: table(
    'v|verbose q|quiet t|track=?@track |set-upstream@track u|set-upstream-to= |unset-upstream |color=? r|remotes@kind ' +
      '|contains=*! |no-contains=*! |with=*! |without=*! |abbrev=? a|all@kind d|delete D| m|move M| c|copy C| l|list ' +
      '|show-current |create-reflog |edit-description f|force |merged=*! |no-merged=*! |column=? |sort= |points-at= ' +
      'i|ignore-case |recurse-submodules |format=',
  ),
  tag: table(
    'l|list%mode n|=? d|delete%mode v|verify%mode a|annotate m|message=! F|file= e|edit s|sign |cleanup= u|local-user= ' +
      'f|force |create-reflog |column=? |contains=*! |no-contains=*! |with=*! |without=*! |merged=*! |no-merged=*! |sort= ' +
      '|points-at=* |format= |color=? i|ignore-case',
  ),
  checkout: table(
    'b|= B|= l| |guess |overlay q|quiet |recurse-submodules=? |progress m|merge |conflict= d|detach t|track=? f|force ' +
      '|orphan= |overwrite-ignore |ignore-other-worktrees 2|ours!@stage 3|theirs!@stage p|patch |ignore-skip-worktree-bits ' +
      '|pathspec-from-file= |pathspec-file-nul',
    'keep-dashdash',
  ),
  switch: table(
    'c|create= C|force-create= |guess |discard-changes q|quiet |recurse-submodules=? |progress m|merge |conflict= d|detach ' +
      't|track=? f|force |orphan= |overwrite-ignore |ignore-other-worktrees',
  ),
  restore: table(
    's|source= S|staged W|worktree |ignore-unmerged |overlay q|quiet |recurse-submodules=? |progress m|merge |conflict= ' +
      '2|ours!@stage 3|theirs!@stage p|patch |ignore-skip-worktree-bits |pathspec-from-file= |pathspec-file-nul',
  ),
  reset: table(
    'q|quiet |no-refresh |refresh |mixed@mode |soft@mode |hard@mode |merge@mode |keep@mode |recurse-submodules=? p|patch ' +
      'N|intent-to-add |pathspec-from-file= |pathspec-file-nul',
    'keep-dashdash',
  ),
  clean: table('q|quiet n|dry-run f|force i|interactive d| e|exclude=! x| X|'),
  commit: table(
    'q|quiet v|verbose F|file= |author= |date= m|message= c|reedit-message= C|reuse-message= |fixup= |squash= |reset-author ' +
      '|trailer=! s|signoff t|template= e|edit |cleanup= |status S|gpg-sign=? a|all i|include |interactive p|patch o|only ' +
      'n|no-verify |dry-run |short |branch |ahead-behind |porcelain |long z|null |amend |no-post-rewrite ' +
      'u|untracked-files=? |pathspec-from-file= |pathspec-file-nul |allow-empty |allow-empty-message',
  ),
  merge: table(
    'n| |stat |summary |log=? |squash |commit e|edit |cleanup= |ff@ff |ff-only!@ff |rerere-autoupdate |verify-signatures ' +
      's|strategy= X|strategy-option= m|message= F|file=! |into-name= v|verbose q|quiet |abort |quit |continue ' +
      '|allow-unrelated-histories |progress S|gpg-sign=? |autostash |overwrite-ignore |signoff |no-verify',
  ),
  rebase: table(
    '|onto= |keep-base |no-verify q|quiet v|verbose n|no-stat |signoff |committer-date-is-author-date ' +
      '|reset-author-date |ignore-date C|= |ignore-whitespace |whitespace= f|force-rebase |no-ff |continue%action ' +
      '|skip%action |abort%action |quit%action |edit-todo%action |show-current-patch%action |apply! m|merge! ' +
      'i|interactive! p|preserve-merges |rerere-autoupdate |empty=! k|keep-empty |autosquash |update-refs S|gpg-sign=? ' +
      '|autostash x|exec= |allow-empty-message r|rebase-merges=? |fork-point s|strategy= X|strategy-option= |root ' +
      '|reschedule-failed-exec |reapply-cherry-picks',
  ),
  'cherry-pick': table(
    '|quit%action |continue%action |abort%action |skip%action |cleanup= n|no-commit e|edit r| s|signoff m|mainline= ' +
      '|rerere-autoupdate |strategy= X|strategy-option= S|gpg-sign=? x| |ff |allow-empty |allow-empty-message ' +
      '|keep-redundant-commits',
    'keep-unknown',
  ),
  revert: table(
    '|quit%action |continue%action |abort%action |skip%action |cleanup= n|no-commit e|edit r| s|signoff m|mainline= ' +
      '|rerere-autoupdate |strategy= X|strategy-option= S|gpg-sign=? |reference',
    'keep-unknown',
  ),
  add: table(
    'n|dry-run v|verbose i|interactive p|patch e|edit f|force u|update |renormalize N|intent-to-add A|all |ignore-removal ' +
      '|refresh |ignore-errors |ignore-missing |sparse |chmod= |warn-embedded-repo |pathspec-from-file= |pathspec-file-nul',
  ),
  'stash push': table(
    'k|keep-index S|staged p|patch q|quiet u|include-untracked@untracked a|all@untracked m|message= |pathspec-from-file= ' +
      '|pathspec-file-nul',
    'keep-dashdash',
  ),
  'stash save': table(
    'k|keep-index S|staged p|patch q|quiet u|include-untracked@untracked a|all@untracked m|message=',
    'keep-dashdash',
  ),
  'stash pop': table('q|quiet |index'),
  'stash apply': table('q|quiet |index'),
  'stash drop': table('q|quiet'),
  'stash clear': table(''),
  'stash store': table('q|quiet m|message=', 'keep-unknown'),
  'stash create': table(''),
  'stash branch': table(''),
  remote: table('v|verbose'),
  'remote show': table('n|'),
  'remote get-url': table('|push |all'),
};

/**
 * Read commands need no full table (any option of theirs only reads), but
 * knowing which options take a separate value keeps `--` and the positional
 * words in the right place. Diff and log options share one table.
 */
const LOG_DIFF = table(
  'n|max-count= |skip= |since= |after= |until= |before= |author= |committer= |grep= |grep-reflog= |max-age= |min-age= ' +
    'S|= G|= O|= L|= l|= I|ignore-matching-lines= U|unified=? |inter-hunk-context= |src-prefix= |dst-prefix= |line-prefix= ' +
    '|diff-algorithm= |anchored= |word-diff-regex= |find-object= |diff-filter= |rotate-to= |skip-to= |relative=? |exclude= ' +
    '|glob= |branches=? |tags=? |remotes=? |decorate-refs= |decorate-refs-exclude= |ws-error-highlight=',
  'partial',
);
const partial = (notation: string): OptionTable => table(notation, 'partial');

export const READ_OPTIONS: Record<string, OptionTable> = {
  status: partial('u|untracked-files=? |ignored=? |ignore-submodules=? |porcelain=? M|find-renames=? |column=?'),
  diff: LOG_DIFF,
  log: LOG_DIFF,
  show: LOG_DIFF,
  shortlog: joinTables(partial('c|committer e|email s|summary n|numbered w|=? |group= |format=?'), LOG_DIFF),
  'stash list': LOG_DIFF,
  'stash show': joinTables(partial('u|include-untracked |only-untracked'), LOG_DIFF),
  blame: partial('L|= S|= |contents= |ignore-rev= |ignore-revs-file= |abbrev=? C|=? M|=? |date= |since= |reverse='),
  grep: partial(
    'e|= f|= A|after-context= B|before-context= C|context= m|max-count= O|open-files-in-pager=? |max-depth= |threads= ' +
      '|and |or |not',
  ),
  describe: partial('|match= |exclude= |candidates= |abbrev=? |dirty=? |broken=?'),
  'rev-parse': partial(
    '|default= |prefix= |abbrev-ref=? |short=? |since= |after= |until= |before= |show-object-format=? |git-path= |resolve-git-dir=',
  ),
  'ls-files': partial('x|exclude= X|exclude-from= |exclude-per-directory= |with-tree= |format= |abbrev=?'),
};
