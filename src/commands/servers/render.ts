/** servers: one block per server, found ones first. */
import { displayPath } from '../../common/paths';
import type { ServerForFile, ServersForResult, ServersResult } from './question';
import type { RenderOptions } from '../../render/style';
import type { ServersForShape, ServersShape } from './shape';
import type { Rendered } from '../../render/rendered';
import type * as z from 'zod/mini';

export const serversJson = (r: ServersResult): z.infer<typeof ServersShape> => r;

export function renderServers(r: ServersResult, o: RenderOptions): Rendered {
  const c = o.colors;
  const lines = r.servers.map((s) => {
    const head = `${s.found ? c.green('found  ') : c.yellow('missing')} ${c.bold(s.id.padEnd(28))} ${s.languages.join(', ')}`;
    const detail = s.found
      ? `${s.version ?? 'version unknown'} (${s.command}${s.foundBy ? `, found in ${s.foundBy}` : ''})`
      : `install: ${s.install}`;
    const roots = s.roots.length ? `\n          running for: ${s.roots.join(', ')}` : '';
    const untrusted = (s.untrusted ?? []).map(
      (u) => `\n          ${c.yellow('not trusted:')} ${u} (lspq trust lets it run)`,
    );
    return `${head}\n          ${c.dim(detail)}${roots}${untrusted.join('')}`;
  });
  const config = r.untrusted.map((u) => `${c.yellow('not trusted')} ${u} (lspq trust lets it run)`);
  return { stdout: `${[...config, ...lines, boxLine(r.box)].join('\n')}\n` };
}

const RUNS = {
  trusted: 'as your own code (trusted)',
  contained: 'as configured, in the box (the workspace not trusted)',
  restricted: 'in its untrusted mode (the workspace not trusted, and no box here)',
} as const;

/** The last line: how a workspace not trusted runs on this machine. */
function boxLine(box: string): string {
  if (box.startsWith('none')) return `untrusted workspaces: ${box}`;
  return box.startsWith('contained')
    ? `untrusted workspaces: ${box}: their servers run as configured, the workspace read-only, no network`
    : `untrusted workspaces: ${box}: their servers run in restricted modes (docs/security.md)`;
}

export const serversForJson = (r: ServersForResult, cwd: string): z.infer<typeof ServersForShape> => ({
  ...r,
  file: displayPath(r.file, cwd),
});

/** Where what a server answers is known from: `servers --for` starts nothing to ask it. */
function knownFrom(known: ServerForFile['known']): string {
  if (known.from === 'running') return 'asked: its running server';
  if (known.from === 'remembered')
    return `not started: known from its last run here (${known.at?.slice(0, 10) ?? 'date unknown'})`;
  return 'not started: never run here, so known from the registry only (what it is known to lack)';
}

/** One block per server for the file, in the order lspq asks them: where it was found, what it answers. */
export function renderServersFor(r: ServersForResult, o: RenderOptions): Rendered {
  const c = o.colors;
  const blocks = r.servers.map((s) => {
    const can = Object.entries(s.answers)
      .filter(([, yes]) => yes)
      .map(([name]) => name);
    const cannot = Object.entries(s.answers)
      .filter(([, yes]) => !yes)
      .map(([name]) => name);
    return [
      `${c.bold(s.id)} ${c.dim(s.version ?? 'version unknown')}`,
      `  binary: ${s.path} (found in ${s.foundBy})`,
      `  root: ${s.root}`,
      `  runs: ${RUNS[s.runs]}`,
      `  ${knownFrom(s.known)}`,
      ...(s.python ? [`  python environment: ${s.python}`] : []),
      `  answers: ${can.join(' ')}`,
      ...(cannot.length ? [`  cannot: ${cannot.join(' ')}`] : []),
      ...(s.paid ? [`  only with ${s.paid.how}: ${s.paid.commands.join(' ')}`] : []),
      `  diagnostics complete by: ${s.diagnostics}`,
      ...(s.withoutPlugins ?? []).map(
        (p) =>
          `  ${c.yellow('without')} ${p.plugin}: uses in ${p.unsearched.join(' ')} files go unsearched (${p.install})`,
      ),
    ].join('\n');
  });
  const missing = r.missing.map((m) => `${c.yellow('missing')} ${m.id}: ${m.install}`);
  const untrusted = r.untrusted.map((u) => `${c.yellow('not trusted')} ${u} (lspq trust lets it run)`);
  const notUsed = r.notUsed.map((n) => `${c.dim('not used')} ${n.id}: ${n.why}`);
  return { stdout: `${[...blocks, ...missing, ...untrusted, ...notUsed, boxLine(r.box)].join('\n')}\n` };
}
