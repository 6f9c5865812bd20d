/**
 * A server's WorkspaceEdit (or a list of TextEdits) turned into lspq's own
 * plan: for each file, the text the edit was computed against and the text
 * after it, plus files to create, rename and delete, in order. Pure: the
 * texts come from a reader, nothing touches the disk; writing is
 * src/engine/apply-edit.ts's.
 */
import { isWithin as inside } from '../common/paths';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import { applyToBytes, decodeLossy, isUtf8, type Span } from './file-bytes';
import { splitLines, toStringOffset, type PositionEncoding } from './position';
import { uriToPath } from './uri';

/** One file's part of an edit. `before` null: the file is created; `after` null: it is deleted. */
export interface FileChange {
  path: string;
  before: string | null;
  after: string | null;
  /** Set when the file is renamed (after its edits, if any). */
  renamedTo?: string;
  /** Text edits in it (a created or deleted file counts one). */
  edits: number;
  /** The document version the server computed the edit for, when it said (documentChanges). */
  version?: number;
  /**
   * For a file that is not UTF-8: its bytes, and the bytes after the edit,
   * every byte outside the edit's ranges kept (file-bytes.ts). `before` and
   * `after` are then the text the server saw, for showing.
   */
  bytes?: { before: Uint8Array; after: Uint8Array | null };
}

export interface EditPlan {
  files: FileChange[];
  /**
   * Files or folders moved (lspq mv), before the text edits: `files` then
   * name the paths where the moved ones will be.
   */
  moves?: Move[];
}

export interface Move {
  from: string;
  to: string;
}

/** What the planner may read: the text the server was given for a file (an open document), else the disk's. */
export type TextReader = (path: string) => string | undefined;
/** A file's bytes on disk, to plan against exactly when they are not UTF-8. */
export type BytesReader = (path: string) => Uint8Array | undefined;

const BOM = '\uFEFF';

/** The offset in `text` of an LSP position, in the server's encoding. */
function offsetOf(
  lines: string[],
  starts: number[],
  line: number,
  character: number,
  encoding: PositionEncoding,
  path: string,
): number {
  const lineText = lines[line];
  const start = starts[line];
  if (lineText !== undefined && start !== undefined) return start + toStringOffset(lineText, character, encoding);
  // A position just past the last line (an edit that appends) is the end of the text.
  const lastText = lines.at(-1);
  const lastStart = starts.at(-1);
  if (line === lines.length && character === 0 && lastText !== undefined && lastStart !== undefined)
    return lastStart + lastText.length;
  throw new LspqError(
    'server_failed',
    `the server's edit for ${path} points past its last line (${line + 1}); nothing was written`,
  );
}

/**
 * Where `edits` fall in `text`, as offsets in it, computed against the
 * original text, sorted, with an edit given twice taken once; edits that
 * overlap are refused. Inserts at one place keep the order the server gave.
 */
export function editSpans(text: string, edits: readonly TextEdit[], encoding: PositionEncoding, path: string): Span[] {
  const lines = splitLines(text);
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length;
    at += text.startsWith('\r\n', at) ? 2 : text[at] === '\n' || text[at] === '\r' ? 1 : 0;
  }
  const spans = edits.map((e, order) => ({
    start: offsetOf(lines, starts, e.range.start.line, e.range.start.character, encoding, path),
    end: offsetOf(lines, starts, e.range.end.line, e.range.end.character, encoding, path),
    text: e.newText,
    order,
  }));
  spans.sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  // The same edit twice (a server answering a move of several files once per file) is one edit.
  const same = (a: (typeof spans)[number], b: (typeof spans)[number]) =>
    a.start === b.start && a.end === b.end && a.text === b.text && a.start !== a.end;
  const kept: typeof spans = [];
  for (const span of spans) {
    const before = kept.at(-1);
    if (before && same(before, span)) continue;
    if (before && span.start < before.end)
      throw new LspqError('server_failed', `the server's edits for ${path} overlap; nothing was written`);
    kept.push(span);
  }
  return kept;
}

/** Spans applied from the end backwards, so none moves another. */
function applySpans(text: string, spans: readonly Span[]): string {
  let out = '';
  let from = 0;
  for (const s of spans) {
    out += text.slice(from, s.start) + s.text;
    from = s.end;
  }
  return out + text.slice(from);
}

/** `edits` applied to `text` (offsets against the original text). */
export function applyTextEdits(
  text: string,
  edits: readonly TextEdit[],
  encoding: PositionEncoding,
  path: string,
): string {
  return applySpans(text, editSpans(text, edits, encoding, path));
}

/**
 * What a file's writer keeps that servers do not: a byte-order mark, and
 * CRLF line endings (formatters return LF; a file written with CRLF stays so).
 */
export function keepFileConventions(before: string, after: string): string {
  let out = after;
  if (before.startsWith(BOM) && !out.startsWith(BOM)) out = BOM + out;
  if (crlfOnly(before)) out = out.replace(/\r?\n/g, '\r\n');
  return out;
}

function pathOf(uri: string): string {
  const path = uriToPath(uri);
  if (!path)
    throw new LspqError('server_failed', `the server's edit names ${uri}, which is not a file; nothing was written`);
  return path;
}

/** Only CRLF line ends in `text` (a file whose new lines must be written so too). */
const crlfOnly = (text: string) => text.includes('\r\n') && !/(^|[^\r])\n/.test(text);

/** The files a WorkspaceEdit reads: each it edits, renames (from) or deletes. Pure. */
export function pathsOf(edit: WorkspaceEdit): string[] {
  const uris = edit.documentChanges
    ? edit.documentChanges.flatMap((op) =>
        'textDocument' in op ? [op.textDocument.uri] : op.kind === 'rename' ? [op.oldUri] : [op.uri],
      )
    : Object.keys(edit.changes ?? {});
  return [...new Set(uris.map(uriToPath).filter((p): p is string => p !== undefined))];
}

type Edited = { uri: string; edit: TextEdit };
const beforeOrAt = (a: TextEdit['range']['start'], b: TextEdit['range']['start']) =>
  a.line < b.line || (a.line === b.line && a.character <= b.character);
const sameEdit = (a: TextEdit, b: TextEdit) =>
  a.newText === b.newText &&
  a.range.start.line === b.range.start.line &&
  a.range.start.character === b.range.start.character &&
  a.range.end.line === b.range.end.line &&
  a.range.end.character === b.range.end.character;

/**
 * One server's edits of the same texts as one (a rename asked at a stub
 * and at its implementation): every entry kept, so an edit both give is
 * taken once by the planner (editSpans); `conflict` names a file where two
 * of them change the same text differently. Pure.
 */
export function joinEdits(edits: readonly WorkspaceEdit[]): { edit: WorkspaceEdit; conflict?: string } {
  const documentChanges = edits.flatMap(
    (e) =>
      e.documentChanges ??
      Object.entries(e.changes ?? {}).map(([uri, list]) => ({ textDocument: { uri, version: null }, edits: list })),
  );
  const text: Edited[] = documentChanges.flatMap((op) =>
    'textDocument' in op
      ? op.edits.filter((e): e is TextEdit => 'range' in e).map((edit) => ({ uri: op.textDocument.uri, edit }))
      : [],
  );
  const start = (e: Edited) => e.edit.range.start;
  text.sort((a, b) =>
    a.uri !== b.uri
      ? a.uri < b.uri
        ? -1
        : 1
      : start(a).line - start(b).line || start(a).character - start(b).character,
  );
  const clash = text.find((e, i) => {
    const prior = text[i - 1];
    if (!prior || prior.uri !== e.uri || sameEdit(prior.edit, e.edit)) return false;
    // It starts before the prior one ends, or both insert at one place.
    return !beforeOrAt(prior.edit.range.end, e.edit.range.start) || sameStart(prior.edit, e.edit);
  });
  return { edit: { documentChanges }, ...(clash ? { conflict: uriToPath(clash.uri) ?? clash.uri } : {}) };
}

const sameStart = (a: TextEdit, b: TextEdit) =>
  a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;

/** A WorkspaceEdit (`changes` or `documentChanges`, resource operations included) as a plan. */
export function planWorkspaceEdit(
  edit: WorkspaceEdit,
  read: TextReader,
  encoding: PositionEncoding,
  readBytes?: BytesReader,
): EditPlan {
  // The state of each file as the plan goes: edits to one file in several places of the edit add up.
  const files = new Map<string, FileChange>();
  const current = (path: string): FileChange => {
    let change = files.get(path);
    if (!change) {
      const text = read(path);
      if (text === undefined)
        throw new LspqError(
          'file_not_found',
          `the server's edit changes ${path}, which does not exist; nothing was written`,
        );
      change = { path, before: text, after: text, edits: 0 };
      // Not UTF-8 on disk: planned on its bytes, so no byte the edit does not touch changes.
      const bytes = readBytes?.(path);
      if (bytes && !isUtf8(bytes) && decodeLossy(bytes) === text) change.bytes = { before: bytes, after: bytes };
      files.set(path, change);
    }
    return change;
  };
  // A file's text edits, across every entry that names it, apply together to the text they were computed
  // against (as editors apply a WorkspaceEdit): a second entry for a file is not computed on the first's result.
  const pending = new Map<string, TextEdit[]>();
  const editFile = (path: string, edits: readonly TextEdit[], version?: number | null) => {
    const change = current(path);
    if (change.after === null)
      throw new LspqError('server_failed', `the server's edit changes ${path} after deleting it; nothing was written`);
    pending.set(path, [...(pending.get(path) ?? []), ...edits]);
    if (typeof version === 'number' && change.version === undefined) change.version = version;
  };
  const flush = (path: string) => {
    const edits = pending.get(path);
    if (!edits) return;
    pending.delete(path);
    const change = current(path);
    // editFile refused a deleted file, and a delete flushes the file's edits first.
    if (change.after === null)
      throw new LspqError('server_failed', `the server's edit changes ${path} after deleting it; nothing was written`);
    const spans = editSpans(change.after, edits, encoding, path);
    if (change.bytes?.after) {
      const crlf = crlfOnly(change.before ?? '');
      const exact = crlf ? spans.map((s) => ({ ...s, text: s.text.replace(/\r?\n/g, '\r\n') })) : spans;
      change.bytes.after = applyToBytes(change.bytes.after, exact, path);
      change.after = decodeLossy(change.bytes.after);
    } else change.after = applySpans(change.after, spans);
    change.edits += spans.length;
  };
  if (edit.documentChanges) {
    for (const op of edit.documentChanges) {
      if ('textDocument' in op) {
        editFile(
          pathOf(op.textDocument.uri),
          op.edits.filter((e): e is TextEdit => 'range' in e),
          op.textDocument.version,
        );
      } else if (op.kind === 'create') {
        const path = pathOf(op.uri);
        const before = read(path) ?? null;
        if (before !== null && !op.options?.overwrite) {
          if (op.options?.ignoreIfExists) continue;
          throw new LspqError('server_failed', `the server's edit creates ${path}, which exists; nothing was written`);
        }
        files.set(path, { path, before, after: '', edits: 1 });
      } else if (op.kind === 'rename') {
        const from = pathOf(op.oldUri);
        const to = pathOf(op.newUri);
        flush(from);
        if (read(to) !== undefined && !op.options?.overwrite) {
          if (op.options?.ignoreIfExists) continue;
          throw new LspqError(
            'server_failed',
            `the server's edit renames ${from} to ${to}, which exists; nothing was written`,
          );
        }
        const change = current(from);
        change.renamedTo = to;
        change.edits = Math.max(change.edits, 1);
      } else if (op.kind === 'delete') {
        const path = pathOf(op.uri);
        flush(path);
        if (read(path) === undefined) {
          if (op.options?.ignoreIfNotExists) continue;
          throw new LspqError(
            'server_failed',
            `the server's edit deletes ${path}, which does not exist; nothing was written`,
          );
        }
        const change = current(path);
        change.after = null;
        if (change.bytes) change.bytes.after = null;
        change.edits = Math.max(change.edits, 1);
      }
    }
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) editFile(pathOf(uri), edits);
  }
  for (const path of [...pending.keys()]) flush(path);
  const planned = [...files.values()].map((f) =>
    f.before !== null && f.after !== null && !f.bytes ? { ...f, after: keepFileConventions(f.before, f.after) } : f,
  );
  return { files: planned.filter((f) => f.before !== f.after || f.renamedTo !== undefined) };
}

const encode = (text: string | null) => (text === null ? null : Buffer.from(text));

/** A file's bytes before and after the edit: exact for a file that is not UTF-8, else its text's. */
export function bytesOf(f: FileChange): { before: Uint8Array | null; after: Uint8Array | null } {
  return f.bytes
    ? { before: f.bytes.before, after: f.bytes.after }
    : { before: encode(f.before), after: encode(f.after) };
}

/**
 * Plans made one after another (a code action's edit, then those its
 * command sends back), as one plan to write once: each file from its
 * first text to its last, followed through renames.
 */
export function composePlans(plans: readonly EditPlan[]): EditPlan {
  const [first, ...more] = plans;
  if (first && more.length === 0) return first;
  const files: FileChange[] = [];
  /** Each file by the path it has after the plans so far. */
  const now = new Map<string, FileChange>();
  for (const plan of plans) {
    for (const f of plan.files) {
      const prior = now.get(f.path);
      if (!prior) {
        const first = { ...f };
        files.push(first);
        now.set(f.renamedTo ?? f.path, first);
        continue;
      }
      now.delete(f.path);
      if (prior.bytes || f.bytes) {
        const before = bytesOf(prior).before;
        const after = bytesOf(f).after;
        if (before !== null) prior.bytes = { before, after };
      }
      prior.after = f.after;
      prior.edits += f.edits;
      if (f.renamedTo !== undefined) {
        if (f.renamedTo === prior.path) delete prior.renamedTo;
        else prior.renamedTo = f.renamedTo;
      }
      now.set(prior.renamedTo ?? prior.path, prior);
    }
  }
  const moves = plans.flatMap((p) => p.moves ?? []);
  return {
    files: files.filter((f) => f.before !== f.after || f.renamedTo !== undefined),
    ...(moves.length ? { moves } : {}),
  };
}

/**
 * The plan that puts back what `plan` wrote: moves back (last first), each
 * file's text back, a created file deleted and a deleted one created.
 */
export function reversePlan(plan: EditPlan): EditPlan {
  const moves = (plan.moves ?? []).map((m) => ({ from: m.to, to: m.from })).reverse();
  // The files of a plan name the paths after its moves; the reverse names them after moving back.
  const back = (path: string) => moves.reduce((p, m) => (inside(p, m.from) ? m.to + p.slice(m.from.length) : p), path);
  const files = plan.files.map((f) => {
    const now = f.renamedTo ?? f.path;
    return {
      path: f.renamedTo !== undefined ? now : back(now),
      before: f.after,
      after: f.before,
      edits: f.edits,
      ...(f.renamedTo !== undefined ? { renamedTo: f.path } : {}),
      ...(f.bytes && f.bytes.after !== null ? { bytes: { before: f.bytes.after, after: f.bytes.before } } : {}),
    };
  });
  return { files, ...(moves.length ? { moves } : {}) };
}
