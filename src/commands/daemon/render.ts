/** daemon status: the daemon, then one line per server it holds. */
import type { DaemonStatus, HeldServer } from '../../common/messages';
import type * as z from 'zod/mini';
import type { DaemonStatusShape } from './shape';
import type { RenderOptions } from '../../render/style';
import type { Rendered } from '../../render/rendered';

export const daemonStatusJson = (s: DaemonStatus): z.infer<typeof DaemonStatusShape> => ({ running: true, ...s });

const mb = (bytes: number | null) => (bytes === null ? '?' : `${Math.round(bytes / 1_048_576)} MB`);

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
}

/**
 * For servers held more than once for one root (callers with different
 * PATHs or virtualenvs): what differs, the binary or else the environment
 * variables, so the rows do not look identical. Empty for the others.
 */
export function distinctions(servers: HeldServer[]): string[] {
  return servers.map((v) => {
    const twins = servers.filter((o) => o !== v && o.id === v.id && o.root === v.root);
    if (twins.length === 0) return '';
    if (twins.some((o) => o.binary !== v.binary)) return `binary ${v.binary}`;
    const keys = Object.keys(v.env).filter((k) => twins.some((o) => o.env[k] !== v.env[k]));
    return keys.map((k) => `${k}=${v.env[k] || '(unset)'}`).join(' ');
  });
}

export function renderDaemonStatus(s: DaemonStatus, o: RenderOptions): Rendered {
  const c = o.colors;
  const lines = [
    `daemon pid ${s.pid}, up ${duration(s.uptimeSeconds)}, ${mb(s.memoryBytes)}, build ${s.build}, socket ${s.socket}`,
  ];
  if (s.servers.length === 0) lines.push('no servers running');
  else lines.push(`servers: ${mb(s.serversMemoryBytes)} of the ${mb(s.memoryLimitBytes)} limit`);
  const differs = distinctions(s.servers);
  for (const [i, v] of s.servers.entries()) {
    const notes = [differs[i], v.extra ? "a question's extra, stopped a minute after it" : ''].filter(Boolean);
    const which = notes.length ? `  ${c.dim(`(${notes.join('; ')})`)}` : '';
    lines.push(
      `  ${c.bold(v.id.padEnd(26))} pid ${String(v.pid ?? '?').padEnd(7)} up ${duration(v.uptimeSeconds).padEnd(7)} ${mb(v.memoryBytes).padEnd(7)} ${String(v.requests).padStart(5)} requests  ${v.state}  ${v.root}${which}`,
    );
  }
  for (const b of s.broken)
    lines.push(`  ${c.red('broken')} ${b.id} for ${b.root} (crashed too often; 'lspq daemon restart' clears it)`);
  return { stdout: `${lines.join('\n')}\n` };
}
