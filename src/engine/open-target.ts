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
import { findWord, type TargetSpec } from '../common/target';
import { displayPath } from '../common/paths';
import type { Deadline, HandlerContext } from './context';
import { assertFile, followLink, nameInProject } from './files';
import { prepare, sessionFor } from './sessions';
import { identifiersNear, nearestToName, nearestToPlace, offer, onNoName } from './hints';
import { KIND_WORDS, kindAt, syntaxOf } from '../lsp/lexical';
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
): Promise<OpenTarget> {
  let path: string;
  let line: number;
  let column: number | undefined;
  let symbol: string | undefined;
  let name: { text: string; nth: number } | undefined;
  if (spec.kind === 'symbol') {
    const found = await findSymbol(spec.name, req, ctx, deadline);
    ({ path, line, column } = found);
    symbol = found.name;
  } else {
    path = spec.path;
    line = spec.line;
    if (spec.kind === 'position') column = spec.column;
    else name = { text: spec.name, nth: spec.nth };
  }
  assertFile(path, ctx.pool.caches.texts);
  const where = displayPath(path, req.cwd);
  const { real, shown } = followLink(path, req.cwd);
  const session = await sessionFor(ctx, req, real, capability, what, skip);
  const asked = nameInProject(path, real, session.client.root);
  const text = await session.docs.sync(asked);
  const lines = ctx.pool.caches.lines.ofText(path, text);
  const placed = placeOnLine(where, text, lines, line, column, name);
  column = placed.column;
  symbol ??= placed.symbol;
  const lineText = lines[line - 1]!;
  await prepare(session, ctx, deadline);
  return {
    session,
    path: asked,
    shown,
    target: { path: shown(asked), line, column: column!, ...(symbol ? { symbol } : {}) },
    uri: session.docs.uri(asked),
    position: { line: line - 1, character: toServerCharacter(lineText, column! - 1, session.client.encoding) },
  };
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
  column: number | undefined,
  name: { text: string; nth: number } | undefined,
): { column: number; symbol?: string } {
  if (line > lines.length) {
    // A final newline ends the last line; it does not start one more.
    const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
    throw new LspqError('bad_position', `line ${line} is outside ${where}, which has ${count} lines`);
  }
  const lineText = lines[line - 1]!;
  // A word in a comment or a string is no identifier: the same miss for every server and command.
  const syntax = syntaxOf(where);
  const kind = (col: number) => (syntax ? kindAt(text, line, col, syntax) : 'code');
  if (name) {
    const found = findWord(lineText, name.text);
    const hits = found.filter((h) => kind(h + 1) === 'code');
    if (hits.length === 0) {
      const near = nearestToName(lines, name.text, line, syntax).map((w) => `${where}:${w.line}:${w.text}`);
      const why = found.length
        ? `'${name.text}' is only in ${KIND_WORDS[kind(found[0]! + 1)]} on line ${line} of ${where}, not in code`
        : `'${name.text}' is not on line ${line} of ${where}: ${lineText.trim() || '(empty line)'}`;
      throw new LspqError('name_not_on_line', `${why}${offer(near)}`, undefined, near);
    }
    if (name.nth > hits.length) {
      throw new LspqError(
        'name_not_on_line',
        `line ${line} of ${where} has ${hits.length} occurrence(s) of '${name.text}' in code, not ${name.nth}; lower --nth`,
      );
    }
    column = hits[name.nth - 1]! + 1;
  }
  const length = codePointLength(lineText);
  if (column! > length + 1) {
    throw new LspqError(
      'bad_position',
      `column ${column} is past the end of line ${line} of ${where} (${length} characters)`,
    );
  }
  if (!name && (onNoName(lineText, column!) || kind(column!) !== 'code')) {
    const near = nearestToPlace(identifiersNear(lines, line, 2, syntax), line, column!).map(
      (w) => `${where}:${w.line}:${w.text}`,
    );
    const what = kind(column!) === 'code' ? 'on no name' : `in a ${kind(column!)}, not on code`;
    throw new LspqError(
      'bad_position',
      `column ${column} of line ${line} of ${where} is ${what}${offer(near)}`,
      undefined,
      near,
    );
  }
  return { column: column!, ...(name ? { symbol: name.text } : {}) };
}
