/** servers: every known server, whether it is found, its version, and the roots it runs for; --for FILE what each can answer. */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { strategyFor } from '../../lsp/complete-diagnostics';
import { loadServers } from '../../lsp/servers/config';
import { locateFor } from '../../lsp/servers/locate';
import type { ServerSpec } from '../../lsp/servers/registry';
import type { PoolCaches } from '../../lsp/manager';
import type { CallerContext } from '../../answers/caller';
import type { ServerForFile, ServerInfo, ServersForResult, ServersResult } from './question';
import { deadlineFor, type HandlerContext } from '../../engine/context';
import { assertFile } from '../../engine/files';
import { acquire, candidatesFor, type PassedOver, prepare } from '../../engine/sessions';
import type { ServersForQuery } from './question';

const VERSION_TIMEOUT_MS = 5_000;

/**
 * A binary's own version line, remembered per binary and modification
 * time. Run beside the daemon's other work, never blocking it: a binary
 * that hangs on --version is stopped after VERSION_TIMEOUT_MS.
 */
async function versionOf(
  binary: string,
  args: string[],
  env: Record<string, string>,
  caches: PoolCaches,
): Promise<string | undefined> {
  let mtime = 0;
  try {
    mtime = statSync(binary).mtimeMs;
  } catch {}
  const key = `${binary}\0${mtime}`;
  const known = caches.versions.get(key);
  if (known) return known.line;
  let text = '';
  try {
    const run = Bun.spawn([binary, ...args], { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const timer = setTimeout(() => run.kill('SIGKILL'), VERSION_TIMEOUT_MS);
    const [out, err, status] = await Promise.all([
      new Response(run.stdout).text(),
      new Response(run.stderr).text(),
      run.exited,
    ]);
    clearTimeout(timer);
    // A failing --version prints a stack trace, not a version (pyright-langserver does).
    if (status === 0) text = `${out}\n${err}`;
  } catch {}
  const line =
    text
      .split('\n')
      .find((l) => /\d+\.\d+/.test(l))
      ?.trim() ?? packageVersion(binary);
  return caches.versions.set(key, line === undefined ? {} : { line }).line;
}

/**
 * For a binary an npm package installed, the package's name and version
 * (pyright-langserver prints a stack trace, not its version): the nearest
 * package.json above where the binary really is.
 */
function packageVersion(binary: string): string | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(binary));
  } catch {
    return undefined;
  }
  for (; dir !== dirname(dir) && dir.includes('/node_modules/'); dir = dirname(dir)) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (typeof pkg !== 'object' || pkg === null) return undefined;
      const { name, version } = pkg as Record<string, unknown>;
      return typeof name === 'string' && typeof version === 'string' ? `${name} ${version}` : undefined;
    } catch {}
  }
  return undefined;
}

/** The commands a server answers only with a paid licence: those its paid capabilities would let it answer. */
function paidFor(
  spec: ServerSpec,
  capabilities: ServerCapabilities,
  commands: readonly [string, (c: ServerCapabilities) => boolean][],
): { paid?: { commands: string[]; how: string } } {
  if (!spec.paid) return {};
  const licensed: ServerCapabilities = { ...capabilities };
  for (const key of spec.paid.capabilities) Object.assign(licensed, { [key]: true });
  const names = commands.filter(([, can]) => !can(capabilities) && can(licensed)).map(([name]) => name);
  return names.length ? { paid: { commands: names, how: spec.paid.how } } : {};
}

export async function servers(req: CallerContext, ctx: HandlerContext): Promise<ServersResult> {
  const specs = loadServers(req.root ?? req.cwd, req.env, ctx.trust);
  const configLeftOut = ctx.trust.leftOut.map((l) => l.what);
  const held = ctx.pool.list();
  const result: ServerInfo[] = await Promise.all(
    specs.map(async (spec) => {
      const running = held.filter((s) => s.client.spec.id === spec.id);
      // Found here, or found for a project it runs for (a project's own node_modules): found either way.
      const before = ctx.trust.leftOut.length;
      const located = locateFor(spec, req.root ?? req.cwd, req.env, ctx.trust);
      const untrusted = ctx.trust.leftOut.slice(before).map((l) => l.what);
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
        ...(binary ? { version: await versionOf(binary, spec.versionArgs, req.env, ctx.pool.caches) } : {}),
        install: spec.install,
        roots: [...new Set(roots)],
        ...(untrusted.length ? { untrusted } : {}),
      };
    }),
  );
  return { servers: result, untrusted: configLeftOut };
}

/**
 * servers --for FILE: the servers for the file, in the order lspq asks
 * them, each started (so it is warm afterwards) to read what it can answer.
 */
export async function serversFor(req: ServersForQuery, ctx: HandlerContext): Promise<ServersForResult> {
  assertFile(req.file);
  const passed: PassedOver[] = [];
  const found = candidatesFor(req.file, req, ctx, passed);
  const deadline = deadlineFor(req);
  const servers: ServerForFile[] = [];
  for (const c of found) {
    const session = await acquire(ctx, c, req);
    // Ready with the file open: capabilities registered after start (pyright's pull diagnostics) are in.
    await session.docs.sync(req.file);
    await prepare(session, ctx, deadline);
    const capabilities = session.client.capabilities;
    // What its binary prints, else what the server said of itself as it started (pyright-langserver prints none).
    const version =
      (await versionOf(c.binary, c.spec.versionArgs, req.env, ctx.pool.caches)) ?? session.client.serverVersion;
    servers.push({
      id: c.spec.id,
      root: c.root,
      path: c.binary,
      foundBy: c.rule,
      ...(c.python ? { python: c.python } : {}),
      ...(version ? { version } : {}),
      answers: Object.fromEntries(ctx.capabilities.map(([name, can]) => [name, can(capabilities)])),
      ...paidFor(c.spec, capabilities, ctx.capabilities),
      diagnostics: strategyFor(session),
    });
  }
  // Each server not asked is in one list: not installed, not trusted, or not for this file (and why).
  const missing = passed.flatMap((p) => ('missing' in p ? [{ id: p.id, install: p.missing }] : []));
  const notUsed = passed.flatMap((p) => ('notUsed' in p ? [{ id: p.id, why: p.notUsed }] : []));
  const untrusted = [...new Set(ctx.trust.leftOut.filter((l) => !l.quiet).map((l) => l.what))];
  return { file: req.file, servers, missing, untrusted, notUsed };
}
