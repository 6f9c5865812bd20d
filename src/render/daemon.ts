/** daemon status: the daemon, then one line per server it holds. */
import type { DaemonStatus } from '../protocol/messages';
import type { RenderOptions } from './style';
import type { Rendered } from './types';

export const daemonStatusJson = (s: DaemonStatus): object => ({ running: true, ...s });

const mb = (bytes: number | null) => (bytes === null ? '?' : `${Math.round(bytes / 1_048_576)} MB`);

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${seconds % 60}s`;
  return `${Math.floor(seconds / 3600)}h${Math.floor((seconds % 3600) / 60)}m`;
}

export function renderDaemonStatus(s: DaemonStatus, o: RenderOptions): Rendered {
  const c = o.colors;
  const lines = [`daemon pid ${s.pid}, up ${duration(s.uptimeSeconds)}, ${mb(s.memoryBytes)}, build ${s.build}, socket ${s.socket}`];
  if (s.servers.length === 0) lines.push('no servers running');
  for (const v of s.servers) {
    lines.push(`  ${c.bold(v.id.padEnd(26))} pid ${String(v.pid ?? '?').padEnd(7)} up ${duration(v.uptimeSeconds).padEnd(7)} ${mb(v.memoryBytes).padEnd(7)} ${String(v.requests).padStart(5)} requests  ${v.state}  ${v.root}`);
  }
  for (const b of s.broken) lines.push(`  ${c.red('broken')} ${b.id} for ${b.root} (crashed too often; 'lspq daemon restart' clears it)`);
  return { stdout: `${lines.join('\n')}\n` };
}
