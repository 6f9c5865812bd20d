/**
 * Workspace symbol search: the servers of the project around the current
 * directory, `symbols -w QUERY`, and `--symbol NAME` (exact name,
 * `Outer.inner` narrowed by container, ambiguity listed as targets).
 */
import { WorkspaceSymbolRequest, type SymbolInformation, type WorkspaceSymbol as LspWorkspaceSymbol } from 'vscode-languageserver-protocol';
import { LspqError } from '../../errors';
import { symbolKindName, TextSource, toSpan } from '../../lsp/convert';
import type { Session } from '../../lsp/manager';
import { projectFiles, serversWithFiles } from '../../lsp/project-files';
import { loadServers } from '../../lsp/servers/config';
import { findMarkedRoot, locateBinary } from '../../lsp/servers/locate';
import { uriToPath } from '../../lsp/uri';
import type { CallerContext, WorkspaceSymbol } from '../../protocol/messages';
import { findWord } from '../../protocol/target';
import { displayPath } from '../../render/paths';
import { acquire, prepare, using, type Deadline, type HandlerContext } from './context';

/** The servers of the project around `--root` or the current directory: the nearest marked root wins. */
export async function workspaceSessions(req: CallerContext, ctx: HandlerContext): Promise<Session[]> {
  const dir = req.root ?? req.cwd;
  const specs = loadServers(dir, req.env).filter((s) => !req.server || s.id === req.server);
  if (req.server && specs.length === 0) throw new LspqError('usage', `unknown server '${req.server}'; 'lspq servers' lists the known ids`);
  const marked = specs
    .map((spec) => ({ spec, root: req.root ?? findMarkedRoot(spec, dir) }))
    .filter((c): c is { spec: typeof c.spec; root: string } => c.root !== undefined);
  if (marked.length === 0) {
    throw new LspqError('no_server', `no project found around ${dir} (no go.mod, package.json, pyproject.toml, Cargo.toml, compile_commands.json...); run from inside a project or pass --root`);
  }
  const nearest = Math.max(...marked.map((c) => c.root.length));
  const atNearest = marked.filter((m) => m.root.length === nearest);
  // Only the servers whose languages the root holds: a marker says where a project is, not what it is written in.
  const withFiles = new Set(serversWithFiles(atNearest.map((c) => c.spec), atNearest[0]!.root));
  const languages = atNearest.filter((c) => withFiles.has(c.spec));
  if (languages.length === 0) {
    throw new LspqError('no_server', `no source file under ${atNearest[0]!.root} is of a language a configured server handles; run from inside a project or pass --root`);
  }
  const chosen: typeof marked = [];
  const covered = new Set<string>();
  const missing: string[] = [];
  for (const c of languages) {
    const exts = Object.keys(c.spec.languages);
    if (exts.every((e) => covered.has(e))) continue;
    if (!locateBinary(c.spec, c.root, req.env)) {
      missing.push(`${c.spec.id} (${c.spec.install})`);
      continue;
    }
    exts.forEach((e) => covered.add(e));
    chosen.push(c);
  }
  if (chosen.length === 0) throw new LspqError('server_not_installed', `no server for ${dir} is installed; install one of: ${missing.join('; ')}`);
  const sessions: Session[] = [];
  for (const c of chosen) {
    const binary = locateBinary(c.spec, c.root, req.env)!;
    sessions.push(await acquire(ctx, { spec: c.spec, binary, root: c.root }, req));
  }
  return sessions;
}

/** Some servers (tsserver) only know a project once one of its files is open. */
async function ensureProjectOpen(session: Session): Promise<void> {
  if (session.docs.paths.length > 0) return;
  const [first] = projectFiles(session.client.spec, session.client.root, 1);
  if (first) await session.docs.sync(first);
}

/**
 * A qualified name as parts, the way code writes it: `Outer.inner`,
 * `ns::f`, and a container that is a package path (gopls's `net/http`) or a
 * module path (pyright's `rich.table`) split the same way.
 */
const splitQualified = (x: string) => x.split(/::|[./\\]/).filter(Boolean);

function qualifiedParts(s: { name: string; containerName?: string }): string[] {
  return [...splitQualified(s.containerName ?? ''), ...splitQualified(s.name)];
}

/** `Outer.inner`, `http.ListenAndServe`, `net/http.ListenAndServe`: matches when the symbol's qualified parts end with them. */
export function matchesQualified(s: { name: string; containerName?: string }, wanted: string): boolean {
  const want = splitQualified(wanted);
  const have = qualifiedParts(s);
  if (want.length === 0 || want.length > have.length) return false;
  const tail = have.slice(have.length - want.length);
  // The name itself must end with the last part (gopls names methods "Type.Method").
  return tail.every((p, i) => p === want[i]) && splitQualified(s.name).pop() === want[want.length - 1];
}

/** The shortest qualified name that picks `s` alone among `all`: the hint for an ambiguous --symbol. */
export function shortestQualifier(s: { name: string; containerName?: string }, all: { name: string; containerName?: string }[]): string {
  const parts = qualifiedParts(s);
  for (let k = Math.min(2, parts.length); k <= parts.length; k++) {
    const name = parts.slice(parts.length - k).join('.');
    if (all.filter((o) => matchesQualified(o, name)).length === 1) return name;
  }
  return parts.join('.');
}

export async function searchWorkspace(
  session: Session,
  query: string,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<(SymbolInformation | LspWorkspaceSymbol)[]> {
  if (!session.client.capabilities.workspaceSymbolProvider) return [];
  return using(session, async () => {
    await ensureProjectOpen(session);
    await prepare(session, ctx, deadline);
    const result = await session.client.request(WorkspaceSymbolRequest.type, { query }, deadline.options(ctx.signal));
    return result ?? [];
  });
}

/** lspq's symbol, positioned on its name rather than the start of its whole declaration. */
export function toWorkspaceSymbol(s: SymbolInformation | LspWorkspaceSymbol, session: Session, texts: TextSource): WorkspaceSymbol | undefined {
  const path = uriToPath(s.location.uri);
  if (!('range' in s.location)) return undefined;
  const range = s.location.range;
  const span = toSpan(path, range, texts, session.client.encoding);
  let { line, column } = span;
  const bare = s.name.replace(/::/g, '.').split('.').pop() ?? s.name;
  if (path) {
    for (let l = span.line; l <= Math.min(span.endLine, span.line + 50); l++) {
      const hits = findWord(texts.line(path, l - 1), bare);
      const after = hits.filter((h) => l > span.line || h + 1 >= span.column);
      if (after.length > 0) {
        line = l;
        column = after[0]! + 1;
        break;
      }
    }
  }
  return {
    name: s.name,
    kind: symbolKindName(s.kind),
    ...(s.containerName ? { container: s.containerName } : {}),
    path: path ?? s.location.uri,
    line,
    column,
  };
}

export async function findSymbol(
  name: string,
  req: CallerContext,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<{ path: string; line: number; column: number; name: string }> {
  const bare = splitQualified(name).pop() ?? name;
  const matches: WorkspaceSymbol[] = [];
  for (const session of await workspaceSessions(req, ctx)) {
    const texts = new TextSource((p) => session.docs.text(p));
    for (const s of await searchWorkspace(session, bare, ctx, deadline)) {
      if (!matchesQualified(s, name)) continue;
      const sym = toWorkspaceSymbol(s, session, texts);
      if (sym) matches.push(sym);
    }
  }
  const unique = [...new Map(matches.map((m) => [`${m.path}:${m.line}:${m.column}`, m])).values()];
  if (unique.length === 0) {
    throw new LspqError('symbol_not_found', `no symbol named '${name}' in the workspace; 'lspq symbols -w ${bare}' lists similar names`);
  }
  if (unique.length > 1) {
    const named = unique.map((m) => ({ name: m.name, ...(m.container ? { containerName: m.container } : {}) }));
    const list = unique
      .slice(0, 20)
      .map((m, i) => `${displayPath(m.path, req.cwd)}:${m.line}:${m.column} (${m.kind} --symbol ${shortestQualifier(named[i]!, named)})`)
      .join(', ');
    throw new LspqError('ambiguous_symbol', `'${name}' names ${unique.length} symbols; pick one as a target or qualify it as shown: ${list}`);
  }
  const only = unique[0]!;
  return { path: only.path, line: only.line, column: only.column, name };
}
