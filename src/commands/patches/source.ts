/**
 * Where a patch's diff comes from (diag --patch, apply: a file, or stdin as
 * the command's process read it) and where its paths lead: from the
 * current folder, or from the repository's top where git wrote them so;
 * inside the MCP server's pinned workspace, or refused. A chain's patches
 * are read each against the tree the ones before it make.
 */
import type { PatchStep, ReadPatch } from '../../answers/diagnostics';
import { readPatch } from './read';
import { LspqError, usage } from '../../common/errors';
import type { CommandLine } from '../../common/messages';
import { displayPath, isWithin, resolvePath } from '../../common/paths';
import { realOf } from '../../common/real-path';
import { whereItLands } from '../../common/workspace-guard';
import { GitRepo } from '../../git/repo';
import { readWorkspaceText } from '../../common/file-size';

/** A file's text, or undefined where there is no file. */
function readText(path: string): string | undefined {
  return readWorkspaceText(path, 'source');
}

/** The diff a patch's VALUE names: stdin for `-`, else a file. */
function diffText(value: string, line: CommandLine): string {
  if (value === '-') {
    if (line.stdin === undefined)
      throw usage(
        "- reads the diff from stdin, and none came with this command (a batch's stdin is its requests): give the diff as a file",
      );
    return line.stdin;
  }
  const path = resolvePath(line.cwd, value);
  if (line.confine && !isWithin(whereItLands(path), realOf(line.confine)))
    throw new LspqError('outside_workspace', `${value} is outside the workspace (${line.confine})`);
  const text = readText(path);
  if (text === undefined)
    throw new LspqError(
      'file_not_found',
      `${value} does not exist or is not a file; give the diff's file, or - for stdin`,
    );
  return text;
}

/**
 * The files the diff touches, before and after, its paths read from the
 * current folder or else the repository's top; `over`: the texts earlier
 * patches of a chain made (null: a file they deleted), read before the disk's.
 */
export async function patchFor(
  value: string,
  line: CommandLine,
  over: ReadonlyMap<string, string | null> = new Map(),
): Promise<ReadPatch> {
  const text = diffText(value, line);
  const current = (path: string) => {
    const made = over.get(path);
    return made === undefined ? readText(path) : (made ?? undefined);
  };
  const pinned = line.confine ? realOf(line.confine) : undefined;
  // Inside the MCP server's pinned workspace, or refused before anything outside is read.
  const within = (path: string) => {
    if (pinned !== undefined && !isWithin(whereItLands(path), pinned))
      throw new LspqError(
        'outside_workspace',
        `the patch touches ${displayPath(path, line.cwd)}, outside the workspace this MCP server was started for (${line.confine})`,
      );
    return path;
  };
  const read = (base: string) =>
    readPatch(
      text,
      (name) => within(resolvePath(base, name)),
      current,
      (p) => displayPath(p, line.cwd),
    );
  try {
    return read(line.cwd);
  } catch (err) {
    // git diff names files from the repository's top, wherever in it it ran.
    const top = err instanceof LspqError && err.code === 'patch_does_not_apply' ? await topOf(line) : undefined;
    if (top === undefined || top === line.cwd) throw err;
    try {
      return read(top);
    } catch {
      throw err;
    }
  }
}

/**
 * The patches of a chain, in order, each read against the tree the ones
 * before it make (so the second may change what the first added); `-`,
 * stdin, at most once.
 */
export async function chainFor(values: readonly string[], line: CommandLine): Promise<PatchStep[]> {
  if (values.filter((v) => v === '-').length > 1)
    throw usage('- reads a patch from stdin, which holds one: give the other patches as files');
  const tree = new Map<string, string | null>();
  const steps: PatchStep[] = [];
  for (const name of values) {
    const read = await patchFor(name, line, tree);
    for (const f of read.files) {
      if (f.renamedFrom !== undefined) tree.set(f.renamedFrom, null);
      tree.set(f.path, f.after);
    }
    steps.push({ name, ...read });
  }
  return steps;
}

async function topOf(line: CommandLine): Promise<string | undefined> {
  return (await GitRepo.open(line.cwd, line.env))?.top;
}
