/** servers: every known server, whether it is found, its version, and the roots it runs for; --for FILE what each can answer. */
import type { ServerCapabilities } from 'vscode-languageserver-protocol';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { readWorkspaceJson, readWorkspaceText } from '../../common/file-size';
import { basename, dirname, join } from 'node:path';
import { boxed } from '../../box/command';
import { findingWords } from '../../box/containment';
import { trustModeOf } from '../../lsp/pool-key';
import { Trust } from '../../trust/decision';
import { type Offered, offeredBy, strategyOf } from '../../lsp/complete-diagnostics';
import { knownServer, knownVersion, rememberVersion } from '../../lsp/known-servers';
import { loadServers } from '../../lsp/servers/config';
import { locateFor } from '../../lsp/servers/locate';
import type { ServerSpec } from '../../lsp/servers/registry';
import { type PoolCaches, remember } from '../../lsp/manager';
import type { CallerContext } from '../../answers/caller';
import type { ServerForFile, ServerInfo, ServersForResult, ServersResult } from './question';
import type { HandlerContext } from '../../engine/context';
import { assertFile } from '../../engine/files';
import { candidatesFor, type PassedOver } from '../../engine/sessions';
import { pluginInstall, pluginsLacking } from '../../lsp/servers/ts-plugins';
import type { ServersForQuery } from './question';
import { isRecord } from '../../common/records';

// pyright-langserver's --version alone took 3.9 s here, more under load; it runs once per binary and is remembered.
const VERSION_TIMEOUT_MS = 10_000;

/**
 * A binary's version line: where an npm package or a Python distribution
 * installed it, its name and version (read, not run); else what it printed when
 * asked before (this daemon's memory, then the user's cache:
 * known-servers.ts), so looking runs nothing twice; else its own
 * `--version`, run once per binary (beside the daemon's other work, never
 * blocking it; one that hangs is stopped after VERSION_TIMEOUT_MS) and
 * remembered.
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
  const known = caches.versions.get(key) ?? knownVersion(env, binary);
  if (known) return caches.versions.set(key, known).line;
  const fromPackage = packageVersion(binary) ?? scriptVersion(binary);
  if (fromPackage) return caches.versions.set(key, { line: fromPackage }).line;
  let text = '';
  try {
    // A binary the user has not trusted (found in a workspace) is asked its version in its box.
    const box = new Trust(env).boxFor([binary]);
    const command = box
      ? boxed([binary, ...args], box, { purpose: 'version', root: dirname(binary), binary, cwd: '/', env })
      : { argv: [binary, ...args], env };
    const run = Bun.spawn(command.argv, {
      env: command.env,
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
    });
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
  const line = text
    .split('\n')
    .find((l) => /\d+\.\d+/.test(l))
    ?.trim();
  rememberVersion(env, binary, line);
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
    const pkg = readWorkspaceJson(join(dir, 'package.json'));
    if (pkg === undefined) continue;
    if (!isRecord(pkg)) return undefined;
    const { name, version } = pkg;
    return typeof name === 'string' && typeof version === 'string' ? `${name} ${version}` : undefined;
  }
  return undefined;
}

/**
 * For a Python console script (pip's `pylsp`, `jedi-language-server`), the
 * distribution that installed it, name and version: the entry points of the
 * site-packages beside the interpreter its first line names. Read, not run
 * (a Python server's --version takes a second or more).
 */
function scriptVersion(binary: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(binary);
  } catch {
    return undefined;
  }
  // A script is small: a binary past the cap has no first line to read here, and is passed over unsaid.
  const head = readWorkspaceText(real, 'source', { quiet: true })?.slice(0, 512);
  if (head === undefined) return undefined;
  const python = /^#!\s*(\S*python[\d.]*)\s*$/m.exec(head.split('\n')[0] ?? '')?.[1];
  if (!python?.startsWith('/')) return undefined;
  const lib = join(dirname(dirname(python)), 'lib');
  const script = basename(real);
  const entry = new RegExp(`^\\s*${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=`, 'm');
  try {
    for (const version of readdirSync(lib).filter((d) => d.startsWith('python'))) {
      const site = join(lib, version, 'site-packages');
      for (const info of readdirSync(site).filter((d) => d.endsWith('.dist-info'))) {
        const points = readWorkspaceText(join(site, info, 'entry_points.txt'), 'configuration');
        if (points === undefined) continue;
        const scripts = /\[console_scripts\]([^[]*)/.exec(points)?.[1] ?? '';
        const named = /^(.+)-([^-]+)\.dist-info$/.exec(info);
        if (named && entry.test(scripts)) return `${named[1]} ${named[2]}`;
      }
    }
  } catch {}
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
  return { servers: result, untrusted: configLeftOut, box: boxWordsFor(req.env, ctx.trust) };
}

/**
 * What every command needs of a server, all offered but what the registry
 * says it lacks, and moves where it says the server updates imports: the
 * registry's word for a server never run here.
 */
function declared(spec: ServerSpec): ServerCapabilities {
  const all: ServerCapabilities = {
    definitionProvider: true,
    typeDefinitionProvider: true,
    implementationProvider: true,
    referencesProvider: true,
    hoverProvider: true,
    signatureHelpProvider: {},
    documentSymbolProvider: true,
    workspaceSymbolProvider: true,
    callHierarchyProvider: true,
    codeActionProvider: true,
    documentFormattingProvider: true,
    documentRangeFormattingProvider: true,
    renameProvider: true,
  };
  for (const key of spec.lacks ?? []) delete all[key];
  if (spec.updatesImportsOnMove)
    all.workspace = { fileOperations: { willRename: { filters: [{ pattern: { glob: '**/*' } }] } } };
  return all;
}

/**
 * servers --for FILE: the servers for the file, in the order lspq asks
 * them, and what each can answer, starting nothing: from its running
 * server where the daemon holds one, else from what it said of itself the
 * last time this binary ran (known-servers.ts), else the registry's word
 * (what it is known to lack), each answer saying which.
 */
export async function serversFor(req: ServersForQuery, ctx: HandlerContext): Promise<ServersForResult> {
  assertFile(req.file);
  const passed: PassedOver[] = [];
  const found = candidatesFor(req.file, req, ctx, passed);
  const servers: ServerForFile[] = [];
  for (const c of found) {
    const running = ctx.pool.peek({ spec: c.spec, binary: c.binary, root: c.root, env: c.env });
    const remembered = running ? undefined : knownServer(req.env, c.spec.id, c.binary);
    const offered: Offered = running
      ? offeredBy(running)
      : (remembered ?? { capabilities: declared(c.spec), registered: [] });
    const known: ServerForFile['known'] = running
      ? { from: 'running' }
      : remembered
        ? { from: 'remembered', at: remembered.at }
        : { from: 'declared' };
    if (running) remember(running);
    // What its binary prints, else what the server said of itself as it started (pyright-langserver prints none).
    const version =
      (await versionOf(c.binary, c.spec.versionArgs, req.env, ctx.pool.caches)) ?? running?.client.serverVersion;
    const lacking = pluginsLacking(c.spec, c.root);
    servers.push({
      id: c.spec.id,
      root: c.root,
      path: c.binary,
      foundBy: c.rule,
      runs: trustModeOf(c.spec),
      ...(c.python ? { python: c.python } : {}),
      ...(version ? { version } : {}),
      known,
      answers: Object.fromEntries(ctx.capabilities.map(([name, can]) => [name, can(offered.capabilities)])),
      ...paidFor(c.spec, offered.capabilities, ctx.capabilities),
      diagnostics: known.from === 'declared' ? (c.spec.diagnostics ?? 'push') : strategyOf(c.spec, offered),
      ...(lacking.length > 0
        ? {
            withoutPlugins: lacking.map((p) => ({
              plugin: p.name,
              unsearched: p.reaches ?? [],
              install: pluginInstall(p),
            })),
          }
        : {}),
    });
  }
  // Each server not asked is in one list: not installed, not trusted, or not for this file (and why).
  const missing = passed.flatMap((p) => ('missing' in p ? [{ id: p.id, install: p.missing }] : []));
  const notUsed = passed.flatMap((p) => ('notUsed' in p ? [{ id: p.id, why: p.notUsed }] : []));
  const untrusted = [...new Set(ctx.trust.leftOut.filter((l) => !l.quiet).map((l) => l.what))];
  return { file: req.file, servers, missing, untrusted, notUsed, box: boxWordsFor(req.env, ctx.trust) };
}

/** How a workspace not trusted runs here, in words; with LSPQ_TRUST=all there is none. */
function boxWordsFor(env: Record<string, string | undefined>, trust: Trust): string {
  return env.LSPQ_TRUST === 'all' ? 'none: every folder is trusted (LSPQ_TRUST=all)' : findingWords(trust.finding);
}
