/**
 * A target made concrete: the file opened on its server, the line checked,
 * NAME found on it, `--symbol` looked up in the workspace, and the column
 * converted to the server's position encoding.
 */
import type { Position, ServerCapabilities } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import type { Session } from '../lsp/manager';

import { codePointLength, toServerCharacter } from '../lsp/position';
import type { CallerContext } from '../answers/caller';
import type { ResolvedTarget } from '../answers/places';
import { findPattern, findWord, MARKER, type TargetSpec } from '../common/target';
import { displayPath } from '../common/paths';
import type { Deadline, HandlerContext } from './context';
import { assertConfined, assertFile, followLink, nameInProject } from './files';
import { prepare, sessionFor } from './sessions';
import { identifiersNear, namesOnLine, nearestToName, nearestToPlace, offer, onNoName, type Word } from './hints';
import { KIND_WORDS, kindAt, type Syntax, syntaxOf } from '../lsp/lexical';
import { nameAtColumn } from '../common/identifiers';
import { findSymbol } from './find-symbol';

export interface OpenTarget {
  session: Session;
  /** The file the question is about, a symlink followed: the path the server knows it by. */
  path: string;
  target: ResolvedTarget;
  uri: string;
  position: Position;
  /** A path in an answer as the user should see it (a symlink's target shown as the link). */
  shown: (path: string) => string;
}

export async function openTarget(
  spec: TargetSpec,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
  capability: keyof ServerCapabilities,
  what: string,
  skip: string[] = [],
  /** A place between names is a question too (a call's arguments: signature). */
  anyPlace = false,
): Promise<OpenTarget> {
  let path: string;
  let line: number;
  let aim: Aim;
  let symbol: string | undefined;
  if (spec.kind === 'symbol') {
    const found = await findSymbol(spec.name, req, ctx, deadline);
    ({ path, line } = found);
    aim = { kind: 'position', column: found.column };
    symbol = found.name;
  } else {
    ({ path, line } = spec);
    aim = spec;
  }
  assertConfined(path, req.confine);
  assertFile(path, ctx.pool.caches.texts);
  const where = displayPath(path, req.cwd);
  const { real, shown } = followLink(path, req.cwd);
  const session = await sessionFor(ctx, req, real, capability, what, skip);
  const asked = nameInProject(path, real, session.client.root);
  const text = await session.docs.sync(asked);
  const lines = ctx.pool.caches.lines.ofText(path, text);
  const placed = placeOnLine(where, text, lines, line, aim, anyPlace);
  const column = placed.column;
  symbol ??= placed.symbol;
  const { lineText } = placed;
  await prepare(session, ctx, deadline);
  return {
    session,
    path: asked,
    shown,
    target: { path: shown(asked), line, column, ...(symbol ? { symbol } : {}) },
    uri: session.docs.uri(asked),
    position: { line: line - 1, character: toServerCharacter(lineText, column - 1, session.client.encoding) },
  };
}

/** How a target points into its line: a column, a name, the line's one name, or a text pattern's marker. */
export type Aim =
  | { kind: 'position'; column: number }
  | { kind: 'name'; name: string; nth: number }
  | { kind: 'line' }
  | { kind: 'pattern'; before: string; after: string; nth: number };

/**
 * FILE:LINE:TEXT<|>TEXT: the column of the marker where the text first
 * stands on the line (--nth K: the K-th place); none is the line shown
 * with the names near the marker's.
 */

/** A line as an error shows it: trimmed, and cut where it is long (a minified line would make the one line megabytes). */
function shownLine(lineText: string): string {
  const text = lineText.trim();
  if (text === '') return '(empty line)';
  return text.length > SHOWN_LINE ? `${text.slice(0, SHOWN_LINE)}... (${text.length} characters)` : text;
}
const SHOWN_LINE = 200;

function markerColumn(
  where: string,
  lines: string[],
  line: number,
  lineText: string,
  aim: { before: string; after: string; nth: number },
  syntax: Syntax | undefined,
): number {
  const hits = findPattern(lineText, aim.before, aim.after);
  const written = `${aim.before}${MARKER}${aim.after}`;
  if (hits.length === 0) {
    // The name beside the marker, as a FILE:LINE:NAME miss would look for it.
    const beside = /^[\p{L}\p{N}_$]+/u.exec(aim.after)?.[0] ?? /[\p{L}\p{N}_$]+$/u.exec(aim.before)?.[0];
    const near = beside ? nearestToName(lines, beside, line, syntax).map((w) => `${where}:${w.line}:${w.text}`) : [];
    throw new LspqError(
      'name_not_on_line',
      `'${written}' is not on line ${line} of ${where}: ${shownLine(lineText)}${offer(near)}`,
      undefined,
      near,
    );
  }
  const hit = hits[aim.nth - 1];
  if (hit === undefined) {
    throw new LspqError(
      'name_not_on_line',
      `line ${line} of ${where} has ${hits.length} place(s) where '${written}' stands, not ${aim.nth}; lower --nth`,
    );
  }
  return hit + 1;
}

/** FILE:LINE: the one name the line holds in code; none or several is bad input that names the targets to write. */
function oneNameOnLine(
  where: string,
  lines: string[],
  line: number,
  lineText: string,
  syntax: Syntax | undefined,
): Word {
  const names = namesOnLine(lines, line, syntax);
  const [only, ...others] = names;
  if (only && others.length === 0) return only;
  if (!only) {
    const near = nearestToPlace(identifiersNear(lines, line, 2, syntax), line, 1).map(
      (w) => `${where}:${w.line}:${w.text}`,
    );
    throw new LspqError(
      'bad_position',
      `line ${line} of ${where} holds no name in code: ${shownLine(lineText)}${offer(near)}`,
      undefined,
      near,
    );
  }
  const each = names.map((w) => `${where}:${line}:${w.text}`);
  throw new LspqError(
    'ambiguous_target',
    `line ${line} of ${where} holds ${names.length} names; pick one: ${each.join(', ')}`,
    undefined,
    each,
  );
}

/** A line past a file's end: the one line every command says, with the file's count of lines. */
export function outsideFile(where: string, line: number, lines: string[]): LspqError {
  // A final newline ends the last line; it does not start one more.
  const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
  return new LspqError('bad_position', `line ${line} is outside ${where}, which has ${count} lines`);
}

/**
 * A target's line checked against the file's text, NAME found on it (in
 * code, not a comment or a string) and the column checked: the same
 * one-line errors whether a server or an index answers. Pure.
 */
export function placeOnLine(
  where: string,
  text: string,
  lines: string[],
  line: number,
  aim: Aim,
  anyPlace = false,
): { column: number; lineText: string; symbol?: string } {
  const lineText = lines[line - 1];
  if (line > lines.length || lineText === undefined) throw outsideFile(where, line, lines);
  // A word in a comment or a string is no identifier: the same miss for every server and command.
  const syntax = syntaxOf(where);
  const kind = (col: number) => (syntax ? kindAt(text, line, col, syntax) : 'code');
  let column: number;
  let name: { text: string; nth: number } | undefined;
  if (aim.kind === 'position') column = aim.column;
  else if (aim.kind === 'line') {
    const only = oneNameOnLine(where, lines, line, lineText, syntax);
    column = only.column;
    name = { text: only.text, nth: 1 };
  } else if (aim.kind === 'pattern') {
    column = markerColumn(where, lines, line, lineText, aim, syntax);
  } else {
    name = { text: aim.name, nth: aim.nth };
    const found = findWord(lineText, name.text);
    const hits = found.filter((h) => kind(h + 1) === 'code');
    if (hits.length === 0) {
      const near = nearestToName(lines, name.text, line, syntax).map((w) => `${where}:${w.line}:${w.text}`);
      const first = found[0];
      const why =
        first !== undefined
          ? `'${name.text}' is only in ${KIND_WORDS[kind(first + 1)]} on line ${line} of ${where}, not in code`
          : `'${name.text}' is not on line ${line} of ${where}: ${shownLine(lineText)}`;
      throw new LspqError('name_not_on_line', `${why}${offer(near)}`, undefined, near);
    }
    const hit = hits[name.nth - 1];
    if (hit === undefined) {
      throw new LspqError(
        'name_not_on_line',
        `line ${line} of ${where} has ${hits.length} occurrence(s) of '${name.text}' in code, not ${name.nth}; lower --nth`,
      );
    }
    column = hit + 1;
  }
  const length = codePointLength(lineText);
  if (column > length + 1) {
    throw new LspqError(
      'bad_position',
      `column ${column} is past the end of line ${line} of ${where} (${length} characters)`,
    );
  }
  if (!name && !anyPlace && (onNoName(lineText, column) || kind(column) !== 'code')) {
    const near = nearestToPlace(identifiersNear(lines, line, 2, syntax), line, column).map(
      (w) => `${where}:${w.line}:${w.text}`,
    );
    const what = kind(column) === 'code' ? 'on no name' : `in a ${kind(column)}, not on code`;
    throw new LspqError(
      'bad_position',
      `column ${column} of line ${line} of ${where} is ${what}${offer(near)}`,
      undefined,
      near,
    );
  }
  const symbol = name?.text ?? nameAtColumn(lineText, column);
  return { column, lineText, ...(symbol ? { symbol } : {}) };
}
