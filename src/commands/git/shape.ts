/** The --json answers of git: status, diff, log, branch, or git's own output. */
import * as z from 'zod/mini';
import { int } from '../../answers/shapes';

const StatusEntryShape = z.object({ path: z.string(), status: z.string(), oldPath: z.optional(z.string()) });
const HunkShape = z.object({ oldStart: int, oldLines: int, newStart: int, newLines: int, header: z.string() });

export const GitShape = z.union([
  z.object({
    branch: z.nullable(z.string()),
    oid: z.nullable(z.string()),
    upstream: z.optional(z.string()),
    ahead: int,
    behind: int,
    staged: z.array(StatusEntryShape),
    unstaged: z.array(StatusEntryShape),
    untracked: z.array(z.string()),
    conflicted: z.array(z.string()),
    ignored: z.array(z.string()),
  }),
  z.object({
    files: z.array(
      z.object({
        path: z.string(),
        oldPath: z.optional(z.string()),
        status: z.string(),
        additions: z.nullable(int),
        deletions: z.nullable(int),
        binary: z.boolean(),
        hunks: z.array(HunkShape),
      }),
    ),
  }),
  z.object({
    commits: z.array(
      z.object({
        hash: z.string(),
        author: z.string(),
        email: z.string(),
        date: z.string(),
        subject: z.string(),
        body: z.string(),
      }),
    ),
  }),
  z.object({
    current: z.nullable(z.string()),
    branches: z.array(
      z.object({ name: z.string(), current: z.boolean(), remote: z.boolean(), upstream: z.optional(z.string()) }),
    ),
  }),
  // Any other subcommand with --json: git's own output, with how it ended.
  z.object({
    subcommand: z.string(),
    class: z.string(),
    exit: z.nullable(int),
    stdout: z.string(),
    stderr: z.string(),
  }),
]);
