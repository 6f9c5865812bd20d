/** symbols: a tree of `path:line:col: kind name` lines, indented after the location. */
import { placedLines } from '../../render/placed-lines';
import { sourcedJson } from '../../render/place-json';
import { cutLine, locationPrefix, type RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';
import { displayPath } from '../../common/paths';
import type { DocumentSymbol, SymbolsResult, WorkspaceSymbolsResult } from './question';
import type { SymbolsShape, WorkspaceSymbolsShape } from './shape';
import type * as z from 'zod/mini';

export function symbolsJson(r: SymbolsResult, cwd: string): z.infer<typeof SymbolsShape> {
  return {
    path: displayPath(r.path, cwd),
    server: r.server,
    root: r.root,
    symbols: r.symbols,
    total: r.total,
    truncated: r.truncated,
  };
}

export function renderSymbols(r: SymbolsResult, o: RenderOptions): Rendered {
  const path = displayPath(r.path, o.cwd);
  const lines: string[] = [];
  const walk = (list: DocumentSymbol[], depth: number) => {
    for (const s of list) {
      const detail = s.detail ? ` ${o.colors.dim(s.detail)}` : '';
      lines.push(
        `${locationPrefix(o, path, s.line, s.column)} ${'  '.repeat(depth)}${o.colors.dim(s.kind)} ${o.colors.bold(s.name)}${detail}`,
      );
      walk(s.children, depth + 1);
    }
  };
  walk(r.symbols, 0);
  return {
    stdout: lines.length ? `${lines.join('\n')}\n` : '',
    ...(r.truncated ? { cut: cutLine(countTree(r.symbols), r.total) } : {}),
  };
}

function countTree(list: DocumentSymbol[]): number {
  return list.reduce((n, s) => n + 1 + countTree(s.children), 0);
}

export function workspaceSymbolsJson(r: WorkspaceSymbolsResult, cwd: string): z.infer<typeof WorkspaceSymbolsShape> {
  return {
    query: r.query,
    server: r.server,
    root: r.root,
    symbols: r.symbols.map((s) => ({ ...s, path: displayPath(s.path, cwd) })),
    total: r.total,
    truncated: r.truncated,
    inDependencies: r.inDependencies,
    ...sourcedJson(r, cwd),
  };
}

/** A server's own cap: how many it gave, and that more may match. */
function capNote(r: WorkspaceSymbolsResult, serverCaps: NonNullable<WorkspaceSymbolsResult['serverCaps']>): string {
  const caps = serverCaps.map((c) => `${c.server} answers at most ${c.cap}`).join(', ');
  return `cut by the server: ${caps} symbols, so more may match '${r.query}' than the ${r.symbols.length} shown; narrow the query`;
}

/** `12 more in dependencies: --deps`: the matches left out for lying outside the project, so none is left out unsaid. */
export function dependenciesLine(r: WorkspaceSymbolsResult): string | undefined {
  if (r.inDependencies === 0) return undefined;
  return `${r.inDependencies} ${r.total > 0 ? 'more ' : ''}in dependencies: --deps`;
}

export function renderWorkspaceSymbols(r: WorkspaceSymbolsResult, o: RenderOptions): Rendered {
  const places = r.symbols.map((s) => {
    const container = s.container ? ` ${o.colors.dim(`(${s.container})`)}` : '';
    const path = displayPath(s.path, o.cwd);
    const text = `${locationPrefix(o, path, s.line, s.column)} ${o.colors.dim(s.kind)} ${o.colors.bold(s.name)}${container}`;
    return { path, line: s.line, text, context: s.context };
  });
  // With nothing of the project's, the line that says nothing was found says it (stderr).
  const theirs = r.total > 0 ? dependenciesLine(r) : undefined;
  return {
    stdout: `${placedLines(places)}${theirs ? `${theirs}\n` : ''}`,
    // --limit's cut first; a server's own cap, which --limit 0 does not lift, in its own words in the same place.
    ...(r.symbols.length < r.total
      ? { cut: cutLine(r.symbols.length, r.total) }
      : r.serverCaps?.length
        ? { cut: capNote(r, r.serverCaps) }
        : {}),
  };
}
