/**
 * Where an index's table is, and making it: in the user's cache, keyed by
 * the SCIP file (its real path, size and time) and the root its paths
 * start at. Made once, by a process of its own (lspq __index-table), so
 * the daemon's one thread goes on answering other questions meanwhile;
 * the question that needs it waits for it. Where it cannot be made, the
 * index is read into memory as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { selfArgv } from '../bundles';
import { TABLE_VERSION } from '../scip/index-table';
import { setPriority } from 'node:os';
import { cacheFolder } from '../common/user-folders';

/** The cache folder tables are kept in. */
export function tableCache(env: Record<string, string | undefined>): string {
  return join(cacheFolder(env), 'tables');
}

/** The table's path for an index read with paths from `root` (`rebase`: whatever root the index names). */
export function tablePath(
  file: string,
  root: string,
  rebase: boolean,
  env: Record<string, string | undefined>,
): string {
  const st = statSync(file);
  const key = JSON.stringify([realpathSync(file), st.size, st.mtimeMs, root, rebase, TABLE_VERSION]);
  return join(tableCache(env), `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.sqlite`);
}

/** The niceness a table is made at (0 is the default; 19 the least). */
const BACKGROUND_NICE = 10;

/** Tables being made, by path: a second question for one waits for the same making. */
const making = new Map<string, Promise<boolean>>();

/** The table for an index, made if it is not yet; false when it could not be made (the caller reads the index itself). */
export async function ensureTable(
  file: string,
  root: string,
  rebase: boolean,
  table: string,
  log: (line: string) => void,
): Promise<boolean> {
  if (existsSync(table)) return true;
  const pending = making.get(table);
  if (pending) return pending;
  const make = (async () => {
    mkdirSync(join(table, '..'), { recursive: true, mode: 0o700 });
    const started = performance.now();
    const proc = Bun.spawn([...selfArgv(), '__index-table', file, root, rebase ? '1' : '0', table], {
      stdin: 'ignore',
      stdout: 'ignore',
      stderr: 'pipe',
    });
    // Work of seconds on a core of its own: at a lower priority, so the questions answered meanwhile (their
    // commands, their servers) get the cores first. A priority cannot be refused lowering; if it is, so be it.
    try {
      setPriority(proc.pid, BACKGROUND_NICE);
    } catch {}
    const [stderr, exit] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (exit !== 0 || !existsSync(table)) {
      log(`could not make the table of ${file} (${stderr.trim().split('\n')[0] ?? `exit ${exit}`}); reading it whole`);
      return false;
    }
    log(`made the table of ${file} in ${Math.round(performance.now() - started)} ms`);
    return true;
  })().finally(() => making.delete(table));
  making.set(table, make);
  return make;
}
