/**
 * `--symbol NAME`: the one symbol of the workspace that NAME names, as code
 * writes it (`Outer.inner`, `http.ListenAndServe`, `geometry.total_area`).
 * A miss ends in ready answers, each checked to resolve if fed back: the
 * nearest names on no match, and on several matches a qualifier for each
 * (or its FILE:LINE:NAME where no qualifier picks it alone).
 */
import { symbolTree } from '../lsp/convert';
import { fileQualifier } from '../lsp/servers/languages';
import type { DocumentSymbol as LspDocumentSymbol, Range } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import type { Session } from '../lsp/manager';
import { uriToPath } from '../lsp/uri';
import { displayPath } from '../common/paths';
import type { CallerContext } from '../answers/caller';
import type { WorkspaceSymbol } from '../answers/places';
import type { Deadline, HandlerContext } from './context';
import { textsOf } from './sessions';
import { documentSymbols } from './excerpts';
import { editDistance, MAX_HINTS } from './hints';
import {
  matchesQualified,
  type Named,
  searchWorkspace,
  shortestQualifier,
  splitQualified,
  toWorkspaceSymbol,
  symbolSessions,
} from './symbol-search';

interface Found {
  symbol: WorkspaceSymbol;
  named: Named;
  session: Session;
  range: Range | undefined;
}

const bareOf = (name: string) => splitQualified(name).pop() ?? name;

/** Every symbol the servers find for `query`, with what its file says of its qualifier. */
async function search(query: string, req: CallerContext, ctx: HandlerContext, deadline: Deadline): Promise<Found[]> {
  const out: Found[] = [];
  for (const session of await symbolSessions(req, ctx, '--symbol')) {
    const texts = textsOf(session, ctx);
    const whole = (p: string) => (texts.lines(p) ?? []).join('\n');
    for (const s of await searchWorkspace(session, query, ctx, deadline)) {
      const path = uriToPath(s.location.uri);
      const qualifier = path ? fileQualifier(path, session.client.root, whole) : undefined;
      const symbol = toWorkspaceSymbol(s, session, texts);
      if (!symbol) continue;
      const named: Named = {
        name: s.name,
        ...(s.containerName ? { containerName: s.containerName } : {}),
        ...(qualifier ? { fileQualifier: qualifier } : {}),
      };
      out.push({ symbol, named, session, range: 'range' in s.location ? s.location.range : undefined });
    }
  }
  return [...new Map(out.map((f) => [`${f.symbol.path}:${f.symbol.line}:${f.symbol.column}`, f])).values()];
}

const within = (outer: Range, inner: Range) =>
  (outer.start.line < inner.start.line ||
    (outer.start.line === inner.start.line && outer.start.character <= inner.start.character)) &&
  (outer.end.line > inner.end.line ||
    (outer.end.line === inner.end.line && outer.end.character >= inner.end.character));

const at = (r: Range) => ({ start: r.start, end: r.start });

/**
 * The names of the declarations around `range` (a workspace symbol's:
 * its whole declaration, or only its name), outermost first, the symbol's
 * own declaration left out.
 */
function enclosing(tree: LspDocumentSymbol[], range: Range): string[] {
  for (const d of tree) {
    if (!within(d.range, range)) continue;
    const itself = within(d.selectionRange, at(range)) || within(range, d.selectionRange);
    const inner = enclosing(d.children ?? [], range);
    return itself && inner.length === 0 ? [] : [d.name, ...inner];
  }
  return [];
}

/**
 * A container for symbols whose server gives none (typescript-language-server
 * names a method `area` with no class): the declarations around it in its
 * file's own document symbols.
 */
async function fillContainers(found: Found[], ctx: HandlerContext, deadline: Deadline): Promise<void> {
  for (const f of found) {
    if (f.named.containerName || !f.range || !f.symbol.path.startsWith('/')) continue;
    const raw = await documentSymbols(f.session, f.symbol.path, ctx, deadline);
    const answer = symbolTree(raw);
    if (!('tree' in answer)) continue; // flat answers carry their own containers
    const around = enclosing(answer.tree, f.range);
    if (around.length > 0) f.named.containerName = around.join('.');
  }
}

/** The target a symbol is always reachable by: its FILE:LINE:NAME. */
const targetOf = (f: Found, req: CallerContext) =>
  `${displayPath(f.symbol.path, req.cwd)}:${f.symbol.line}:${bareOf(f.symbol.name)}`;

/** For each match, a qualifier that picks it alone (never NAME itself), else its target. */
function pickOne(matches: Found[], name: string, req: CallerContext): { hint: string; f: Found }[] {
  const all = matches.map((m) => m.named);
  return matches.map((f) => {
    const q = shortestQualifier(f.named, all);
    const alone = q !== name && all.filter((o) => matchesQualified(o, q)).length === 1;
    return { hint: alone ? `--symbol ${q}` : targetOf(f, req), f };
  });
}

/** The nearest names the servers know, each as a --symbol value (or target) that resolves to one symbol. */
async function nearestNames(
  name: string,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<string[]> {
  const bare = bareOf(name);
  const seen = new Map<string, [number, number]>();
  // Servers match loosely: the name's start finds names that differ later on.
  for (const query of new Set([bare, bare.slice(0, 3)])) {
    for (const f of await search(query, req, ctx, deadline)) {
      const candidate = bareOf(f.symbol.name);
      // Case aside first; the same case breaks a tie (Shape before shape for Shap).
      if (candidate !== bare)
        seen.set(candidate, [editDistance(candidate, bare), editDistance(candidate, bare, false)]);
    }
  }
  const close = [...seen]
    .filter(([, [d]]) => d <= Math.max(2, Math.floor(bare.length / 3)))
    .sort((a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_HINTS);
  const hints: string[] = [];
  for (const [candidate] of close) {
    // Checked as it would be fed back: what the candidate name finds, one symbol or one per qualifier.
    const found = (await search(candidate, req, ctx, deadline)).filter((f) => bareOf(f.symbol.name) === candidate);
    if (found.length > 1) await fillContainers(found, ctx, deadline);
    hints.push(...(found.length === 1 ? [`--symbol ${candidate}`] : pickOne(found, candidate, req).map((p) => p.hint)));
  }
  return hints.slice(0, MAX_HINTS);
}

export async function findSymbol(
  name: string,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ path: string; line: number; column: number; name: string }> {
  const bare = bareOf(name);
  const named = (await search(bare, req, ctx, deadline)).filter((f) => bareOf(f.symbol.name) === bare);
  if (splitQualified(name).length > 1 || named.length > 1) await fillContainers(named, ctx, deadline);
  const matches = named.filter((f) => matchesQualified(f.named, name));
  const [first] = matches;
  if (first === undefined) {
    const near = await nearestNames(name, req, ctx, deadline);
    const hint = near.length ? `; nearest: ${near.join(', ')}` : `; 'lspq symbols -w ${bare}' lists similar names`;
    throw new LspqError('symbol_not_found', `no symbol named '${name}' in the workspace${hint}`, undefined, near);
  }
  if (matches.length > 1) {
    const picks = pickOne(matches, name, req);
    const shown = picks
      .slice(0, MAX_HINTS)
      .map(
        ({ hint, f }) =>
          `${hint} (${f.symbol.kind}, ${displayPath(f.symbol.path, req.cwd)}:${f.symbol.line}:${f.symbol.column})`,
      );
    const more = picks.length > MAX_HINTS ? `, and ${picks.length - MAX_HINTS} more` : '';
    throw new LspqError(
      'ambiguous_symbol',
      `'${name}' names ${matches.length} symbols; pick one: ${shown.join(', ')}${more}`,
      undefined,
      picks.slice(0, MAX_HINTS).map((p) => p.hint),
    );
  }
  const only = first.symbol;
  return { path: only.path, line: only.line, column: only.column, name };
}
