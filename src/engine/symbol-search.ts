/**
 * Workspace symbol search: the servers of the project around the current
 * directory, `symbols -w QUERY`, and `--symbol NAME` (exact name,
 * `Outer.inner` narrowed by container, ambiguity listed as targets).
 */
import { Requests } from '../lsp/requests';
import type { FileQualifier } from '../lsp/servers/languages';
import type { SymbolInformation, WorkspaceSymbol as LspWorkspaceSymbol } from 'vscode-languageserver-protocol';
import { LspqError } from '../common/errors';
import { symbolKindName, toSpan, type TextSource } from '../lsp/convert';
import type { Session } from '../lsp/manager';
import { projectFiles, serversWithFiles } from '../lsp/project-files';
import { loadServers } from '../lsp/servers/config';
import type { ServerSpec } from '../lsp/servers/registry';
import { findMarkedRoot, locateFor, nearestMarkedRoot } from '../lsp/servers/locate';
import { uriToPath } from '../lsp/uri';
import type { CallerContext } from '../answers/caller';
import type { WorkspaceSymbol } from '../answers/places';
import { findWord } from '../common/target';
import { loadProjects } from './projects';
import type { Deadline, HandlerContext } from './context';
import { acquire, decide, prepare, using, type Candidate } from './sessions';
import { ownExtensions } from '../lsp/servers/ts-plugins';

/** The servers of the project around `--root` or the current directory: the nearest marked root wins. */
export async function workspaceSessions(req: CallerContext, ctx: HandlerContext): Promise<Session[]> {
  const dir = req.root ?? req.cwd;
  const specs = loadServers(dir, req.env, ctx.trust).filter((s) => !req.server || s.id === req.server);
  if (req.server && specs.length === 0)
    throw new LspqError('usage', `unknown server '${req.server}'; 'lspq servers' lists the known ids`);
  // Nearness by the package's own root; the session's root is its workspace's where it has one.
  const marked = specs
    .map((spec) => ({
      spec,
      near: req.root ?? nearestMarkedRoot(spec, dir),
      root: req.root ?? findMarkedRoot(spec, dir),
    }))
    .filter(
      (c): c is { spec: typeof c.spec; near: string; root: string } => c.near !== undefined && c.root !== undefined,
    );
  if (marked.length === 0) {
    throw new LspqError(
      'no_server',
      `no project found around ${dir} (no go.mod, package.json, pyproject.toml, Cargo.toml, compile_commands.json...); run from inside a project or pass --root`,
    );
  }
  const nearest = Math.max(...marked.map((c) => c.near.length));
  const atNearest = marked.filter((m) => m.near.length === nearest);
  // Only the servers whose languages the root holds: a marker says where a project is, not what it is written in.
  const withFiles = new Set<ServerSpec>();
  for (const root of new Set(atNearest.map((c) => c.root))) {
    const specs = atNearest.filter((c) => c.root === root).map((c) => c.spec);
    for (const spec of await serversWithFiles(specs, root)) withFiles.add(spec);
  }
  const languages = atNearest.filter((c) => withFiles.has(c.spec));
  if (languages.length === 0) {
    throw new LspqError(
      'no_server',
      `no source file under ${atNearest[0]?.root ?? dir} is of a language a configured server handles; run from inside a project or pass --root`,
    );
  }
  const chosen: Candidate[] = [];
  const covered = new Set<string>();
  const missing: string[] = [];
  for (const c of languages) {
    const exts = ownExtensions(c.spec);
    if (exts.every((e) => covered.has(e))) continue;
    const located = locateFor(c.spec, c.root, req.env, ctx.trust);
    if (!located) {
      missing.push(`${c.spec.id} (${c.spec.install})`);
      continue;
    }
    // The one decision of what runs (trust, its untrusted mode, the box), as for every other question.
    const candidate = decide(
      c.spec,
      {
        root: c.root,
        binary: located.binary,
        rule: located.rule,
        ...(located.python ? { python: located.python } : {}),
        ...(located.packages ? { packages: located.packages } : {}),
      },
      req,
      ctx.trust,
    );
    if (!candidate) {
      missing.push(`${c.spec.id} (once trusted: lspq trust)`);
      continue;
    }
    for (const e of exts) covered.add(e);
    chosen.push(candidate);
  }
  if (chosen.length === 0)
    throw new LspqError(
      'server_not_installed',
      `no server for ${dir} is installed; install one of: ${missing.join('; ')}`,
    );
  const sessions: Session[] = [];
  for (const c of chosen) sessions.push(await acquire(ctx, c, req));
  return sessions;
}

/**
 * The workspace's servers that can search its symbols; a server without
 * workspace symbols (pylsp) is a different answer from "no such symbol":
 * where none can, exit 3 says so.
 */
export async function symbolSessions(
  req: CallerContext,
  ctx: HandlerContext,
  what: string,
): Promise<[Session, ...Session[]]> {
  const sessions = await workspaceSessions(req, ctx);
  const [first, ...more] = sessions.filter((s) => s.client.capabilities.workspaceSymbolProvider);
  if (first) return [first, ...more];
  const ids = sessions.map((s) => s.client.spec.id).join(', ');
  throw new LspqError(
    'unsupported',
    `${ids} cannot search the workspace's symbols, which ${what} needs; name another server with --server, or give a FILE:LINE:NAME target ('lspq servers --for FILE' lists what each server can answer)`,
  );
}

/**
 * Some servers (tsserver) only know a project once one of its files is
 * open: every project's, where they are several. Where there is none (no
 * tsconfig.json or jsconfig.json: a package of JavaScript, its sources in
 * a dist/), the server searches the files open and what they import, so
 * every source file that holds the query is opened.
 */
async function ensureProjectOpen(
  session: Session,
  query: string,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<void> {
  const { spec, root } = session.client;
  if (spec.projects) {
    await loadProjects(session, ctx, deadline, { text: query });
    return;
  }
  if (session.docs.paths.length > 0) return;
  const [first] = await projectFiles(spec, root, 1);
  if (first) await session.docs.sync(first);
}

/**
 * A qualified name as parts, the way code writes it: `Outer.inner`,
 * `ns::f`, and a container that is a package path (gopls's `net/http`) or a
 * module path split the same way.
 */
/** `a.b::c/d` as its parts. */
export const splitQualified = (x: string) => x.split(/::|[./\\]/).filter(Boolean);

/** A symbol found by workspace search, with what its file says of its qualifier. */
export interface Named {
  name: string;
  containerName?: string;
  /** The qualifier the file gives: Go's package clause (in place of gopls's package-path container), Python's module path (before the container). */
  fileQualifier?: FileQualifier;
}

/** Each way code may qualify the symbol, as parts ending with its name. */
function qualifiedForms(s: Named): [string[], ...string[][]] {
  const name = splitQualified(s.name);
  const container = splitQualified(s.containerName ?? '');
  const forms: [string[], ...string[][]] = [[...container, ...name]];
  // gopls's container is the package path; Go code writes the package name.
  if (s.fileQualifier)
    forms.push([...s.fileQualifier.parts, ...(s.fileQualifier.replacesContainer ? [] : container), ...name]);
  return forms;
}

/** `Outer.inner`, `http.ListenAndServe`, `net/http.ListenAndServe`, `geometry.total_area`: the symbol's qualified parts end with them. */
export function matchesQualified(s: Named, wanted: string): boolean {
  const want = splitQualified(wanted);
  // The name itself must end with the last part (gopls names methods "Type.Method").
  if (want.length === 0 || splitQualified(s.name).pop() !== want[want.length - 1]) return false;
  return qualifiedForms(s).some(
    (have) => want.length <= have.length && have.slice(have.length - want.length).every((p, i) => p === want[i]),
  );
}

/** The shortest qualified name that picks `s` alone among `all`: the hint for an ambiguous --symbol. */
export function shortestQualifier(s: Named, all: Named[]): string {
  for (const parts of qualifiedForms(s)) {
    for (let k = Math.min(2, parts.length); k <= parts.length; k++) {
      const name = parts.slice(parts.length - k).join('.');
      if (all.filter((o) => matchesQualified(o, name)).length === 1) return name;
    }
  }
  return qualifiedForms(s)[0].join('.');
}

export async function searchWorkspace(
  session: Session,
  query: string,
  ctx: HandlerContext,
  deadline: Deadline,
): Promise<(SymbolInformation | LspWorkspaceSymbol)[]> {
  if (!session.client.capabilities.workspaceSymbolProvider) return [];
  return using(session, async () => {
    await ensureProjectOpen(session, query, ctx, deadline);
    await prepare(session, ctx, deadline);
    const result = await session.client.request(Requests.workspaceSymbol, { query }, deadline.options(ctx));
    return result ?? [];
  });
}

/** lspq's symbol, positioned on its name rather than the start of its whole declaration. */
export function toWorkspaceSymbol(
  s: SymbolInformation | LspWorkspaceSymbol,
  session: Session,
  texts: TextSource,
): WorkspaceSymbol | undefined {
  const path = uriToPath(s.location.uri);
  if (!('range' in s.location)) return undefined;
  const range = s.location.range;
  const span = toSpan(path, range, texts, session.client.encoding);
  let { line, column } = span;
  const bare = s.name.replace(/::/g, '.').split('.').pop() ?? s.name;
  if (path) {
    for (let l = span.line; l <= Math.min(span.endLine, span.line + 50); l++) {
      const hits = findWord(texts.line(path, l - 1), bare);
      const first = hits.find((h) => l > span.line || h + 1 >= span.column);
      if (first !== undefined) {
        line = l;
        column = first + 1;
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
