/** lspq git's own words: its JSON documents and its help. Git's output passes through untouched. Pure. */
import type { CommandOutput } from '../../common/errors';
import type { GitCallResult } from '../../git/call';

/** A call's result as the command prints it: git's output as is, or one JSON document. */
export function renderGitCall(r: GitCallResult): CommandOutput {
  switch (r.kind) {
    case 'passthrough':
      return { stdout: r.stdout, exit: r.exit === 0 ? 0 : 1 };
    case 'parsed':
      return { stdout: `${JSON.stringify(r.doc)}\n`, exit: 0, ...(r.warnings.length ? { warnings: r.warnings } : {}) };
    case 'raw': {
      const { exit, stdout, stderr } = r.result;
      return {
        stdout: `${JSON.stringify({ subcommand: r.subcommand, class: r.class, exit, stdout, stderr })}\n`,
        exit: exit === 0 ? 0 : 1,
      };
    }
  }
}

export function gitHelp(): string {
  return `lspq git: git for agents, under a policy that cannot be talked around

Usage: lspq git [GIT-GLOBAL-OPTIONS] SUBCOMMAND [ARGS] [--json] [--allow-write] [--allow-destructive]

lspq's own flags may stand anywhere after 'git'; every other word goes to git.

Classes:
  read         status, diff, log, show, branch (listing), remote (listing), fetch,
               stash list/show, blame, rev-parse, ls-files, grep, describe,
               tag (listing), shortlog, clean -n                       always runs
  write        add, commit, switch, checkout of a branch, restore --staged, reset,
               merge, rebase, cherry-pick, revert, stash push/pop/apply, tag
               (creating), branch (creating, -d, -m), pull, push    --allow-write
  destructive  push --force/--force-with-lease/--mirror/--delete/+refspec/:ref,
               reset --hard, clean -f, branch -D/-f/-M, checkout -- PATH,
               restore of work-tree files, switch --discard-changes,
               commit --amend, stash drop/clear, tag -d, --abort/--skip
                                                               --allow-destructive
  refused      any other subcommand; -c, --config-env, --exec-path, -C,
               --git-dir, --work-tree, --exec, --upload-pack, --receive-pack,
               --output, --ext-diff, --textconv, ext:: remotes        never

Read commands run nothing the repository configures (fsmonitor, pager, diff
drivers, textconv, filters, hooks, signature programs, ssh/credential
helpers from the repository's own config). No pager, prompt or editor, ever.
A refusal exits 4 and changes nothing; git's own failures exit 1.

--json parses status, diff, log and branch; other subcommands give
{"subcommand", "class", "exit", "stdout", "stderr"}.

Examples:
  lspq git status --json
  lspq git log -n 5 --json
  lspq git commit -m 'fix parser' --allow-write
  lspq git push --force-with-lease --allow-destructive
`;
}
