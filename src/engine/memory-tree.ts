/**
 * A tree as it would be, held in memory: texts by path (null: the file is
 * gone), laid over the disk's for the servers of their languages and taken
 * off after, as an editor's unsaved buffers. Files it creates are opened as
 * documents, files it deletes hidden as each server allows (its
 * `memoryFiles`); what a server cannot be shown without writing it is an
 * error naming the server and the file (exit 3), never a guess.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { LspqError } from '../common/errors';
import { displayPath } from '../common/paths';
import type { Deadline, HandlerContext } from './context';
import type { Session } from '../lsp/manager';
import { Requests } from '../lsp/requests';
import { languageIdFor } from '../lsp/servers/registry';

/** Each file's text in the tree; null where the tree has no such file. */
export type Tree = ReadonlyMap<string, string | null>;

/** Whether `path` is a file of the tree: its own entry, else the disk. */
export function inTree(tree: Tree, path: string): boolean {
  const text = tree.get(path);
  return text === undefined ? existsSync(path) : text !== null;
}

/** The tree's entries a session's server reads (files of its languages). */
export function entriesFor(session: Session, tree: Tree): Map<string, string | null> {
  return new Map([...tree].filter(([p]) => languageIdFor(session.client.spec, p) !== undefined));
}

/**
 * Refuses, before anything is laid, a tree a server would read from the
 * disk instead: a file it creates or deletes where the server cannot be
 * shown that (typescript-language-server, pyright, rust-analyzer's deletes;
 * TypeScript 7's files in a new folder).
 * `absentAsEmpty`: a file absent from the tree may stand as an empty text
 * where it cannot be hidden (diag --since's files added since REV).
 */
export function refuseUnshowable(sessions: Iterable<Session>, tree: Tree, cwd: string, absentAsEmpty = false): void {
  for (const session of sessions) {
    const spec = session.client.spec;
    for (const [path, text] of entriesFor(session, tree)) {
      const onDisk = existsSync(path);
      const what =
        text !== null && !onDisk && !spec.memoryFiles?.created
          ? 'a file that is not on disk'
          : text !== null && !onDisk && spec.memoryFiles?.inFoldersOnDisk && !existsSync(dirname(path))
            ? 'a file in a folder that is not on disk'
            : text === null && onDisk && !spec.memoryFiles?.deleted && !absentAsEmpty
              ? 'a file as gone while it is on disk'
              : undefined;
      if (what)
        throw new LspqError(
          'unsupported',
          `${spec.id} reads ${displayPath(path, cwd)} from the disk: it cannot be shown ${what} without writing it; write the edit and ask 'lspq diag --since HEAD --all'`,
        );
    }
  }
}

/** Lays the tree over the disk for the session's server: its documents hold the tree's texts from now on. */
export async function layOver(session: Session, tree: Tree, ctx: HandlerContext, deadline: Deadline): Promise<void> {
  const deleted = session.client.spec.memoryFiles?.deleted;
  for (const [path, text] of entriesFor(session, tree)) {
    if (text !== null) await session.docs.overlay(path, text);
    else if (!existsSync(path)) await session.docs.close(path);
    else if (deleted === 'event') {
      // TypeScript 7 took a close and a Deleted event of one file, in one batch beside an open, for the close
      // alone (the file stayed): a question about the closed file between makes it take the close in first.
      if (session.docs.isOpen(path)) {
        await session.docs.close(path);
        await session.client.request(
          Requests.documentDiagnostic,
          { textDocument: { uri: session.docs.uri(path) } },
          deadline.options(ctx),
        );
      }
      await session.docs.hide(path);
    }
    // gopls takes an empty document for no file; elsewhere it stands for one (refuseUnshowable allowed it).
    else await session.docs.overlay(path, '');
  }
}

/** Takes the tree off again: the server has the disk's texts and files back. */
export async function takeOff(session: Session, tree: Tree): Promise<void> {
  for (const [path] of entriesFor(session, tree)) {
    await session.docs.endOverlay(path);
    await session.docs.unhide(path);
  }
}
