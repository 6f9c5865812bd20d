/** servers: every known server, whether it is found, its version, and the roots it runs for; --for FILE what each can answer. */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { strategyFor } from '../../lsp/diagnostics';
import { loadServers } from '../../lsp/servers/config';
import { locateFor } from '../../lsp/servers/locate';
import type { PoolCaches } from '../../lsp/manager';
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import type {
  CallerContext,
  QueryFor,
  ServerForFile,
  ServerInfo,
  ServersForResult,
  ServersResult,
} from '../../queries';
import {
  acquire,
  assertFile,
  candidatesFor,
  configuredFor,
  deadlineFor,
  type HandlerContext,
  prepare,
} from './context';

const VERSION_TIMEOUT_MS = 5_000;

/** A binary's own version line, remembered per binary and modification time. */
function versionOf(
  binary: string,
  args: string[],
  env: Record<string, string>,
  caches: PoolCaches,
): string | undefined {
  let mtime = 0;
  try {
    mtime = statSync(binary).mtimeMs;
  } catch {}
  const key = `${binary}\0${mtime}`;
  const known = caches.versions.get(key);
  if (known) return known.line;
  const run = spawnSync(binary, args, {
    env,
    timeout: VERSION_TIMEOUT_MS,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A failing --version prints a stack trace, not a version (pyright-langserver does).
  const text = run.status === 0 ? `${run.stdout ?? ''}\n${run.stderr ?? ''}` : '';
  const line = text
    .split('\n')
    .find((l) => /\d+\.\d+/.test(l))
    ?.trim();
  return caches.versions.set(key, line === undefined ? {} : { line }).line;
}

export async function servers(req: CallerContext, ctx: HandlerContext): Promise<ServersResult> {
  const specs = loadServers(req.root ?? req.cwd, req.env);
  const held = ctx.pool.list();
  const result: ServerInfo[] = specs.map((spec) => {
    const running = held.filter((s) => s.client.spec.id === spec.id);
    // Found here, or found for a project it runs for (a project's own node_modules): found either way.
    const located = locateFor(spec, req.root ?? req.cwd, req.env);
    const binary = located?.binary ?? running[0]?.binary;
    const foundBy = located?.rule ?? (running[0] ? `the project it runs for (${running[0].client.root})` : undefined);
    const roots = running.map((s) => s.client.root);
    return {
      id: spec.id,
      name: spec.name,
      languages: [...new Set(Object.values(spec.languages))],
      found: binary !== undefined,
      ...(binary ? { command: binary } : {}),
      ...(foundBy ? { foundBy } : {}),
      ...(binary ? { version: versionOf(binary, spec.versionArgs, req.env, ctx.pool.caches) } : {}),
      install: spec.install,
      roots: [...new Set(roots)],
    };
  });
  return { servers: result };
}

/** lspq's questions and the capability a server needs to answer each. */
const ANSWERS: [string, (c: ServerCapabilities) => boolean][] = [
  ['def', (c) => !!c.definitionProvider],
  ['typedef', (c) => !!c.typeDefinitionProvider],
  ['impls', (c) => !!c.implementationProvider],
  ['refs', (c) => !!c.referencesProvider],
  ['hover', (c) => !!c.hoverProvider],
  ['symbols', (c) => !!c.documentSymbolProvider],
  ['symbols-w', (c) => !!c.workspaceSymbolProvider],
  ['calls', (c) => !!c.callHierarchyProvider],
  ['actions', (c) => !!c.codeActionProvider],
  ['fmt', (c) => !!c.documentFormattingProvider],
  ['fmt-range', (c) => !!c.documentRangeFormattingProvider],
  ['rename', (c) => !!c.renameProvider],
  ['mv', (c) => !!c.workspace?.fileOperations?.willRename],
  // Every server may publish diagnostics; how lspq knows they are complete is per server.
  ['diag', () => true],
];

/**
 * servers --for FILE: the servers for the file, in the order lspq asks
 * them, each started (so it is warm afterwards) to read what it can answer.
 */
export async function serversFor(req: QueryFor<'serversFor'>, ctx: HandlerContext): Promise<ServersForResult> {
  assertFile(req.file);
  const specs = configuredFor(req.file, req);
  const found = candidatesFor(req.file, req, ctx.pool);
  const deadline = deadlineFor(req);
  const servers: ServerForFile[] = [];
  for (const c of found) {
    const session = await acquire(ctx, c, req);
    // Ready with the file open: capabilities registered after start (pyright's pull diagnostics) are in.
    await session.docs.sync(req.file);
    await prepare(session, ctx, deadline);
    const capabilities = session.client.capabilities;
    const version = versionOf(c.binary, c.spec.versionArgs, req.env, ctx.pool.caches);
    servers.push({
      id: c.spec.id,
      root: c.root,
      path: c.binary,
      foundBy: c.rule,
      ...(c.python ? { python: c.python } : {}),
      ...(version ? { version } : {}),
      answers: Object.fromEntries(ANSWERS.map(([name, can]) => [name, can(capabilities)])),
      diagnostics: strategyFor(session),
    });
  }
  const asked = new Set(found.map((c) => c.spec.id));
  const missing = specs.filter((s) => !asked.has(s.id)).map((s) => ({ id: s.id, install: s.install }));
  return { file: req.file, servers, missing };
}
