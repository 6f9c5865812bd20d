/**
 * Where an index's table is, and making it: in the user's cache, keyed by
 * the SCIP file (its real path, size and time) and the root its paths
 * start at. `lspq index` and `--fetch` make it as they write the index;
 * a question makes it only for an index nobody prepared (one copied in,
 * LSPQ_INDEX). Made once, by a process of its own (lspq __index-table), so
 * the daemon's one thread goes on answering other questions meanwhile;
 * the question that needs it waits for it. Where it cannot be made, the
 * index is read into memory as before.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { selfArgv } from '../bundles';
import { TABLE_VERSION } from '../scip/index-table';
import { ownRoot } from '../scip/scip-index';
import { setPriority } from 'node:os';
import { cacheFolder } from '../common/user-folders';

/** The cache folder tables are kept in. */
export function tableCache(env: Record<string, string | undefined>): string {
  return join(cacheFolder(env), 'tables');
}

/**
 * The table's path for an index read with paths from `root` (`rebase`:
 * whatever root the index names). Without rebase, an index whose own root
 * is on this machine is read at that root whatever root it is offered, so
 * that root keys it: `lspq index --out` and the question `--index` later
 * asks from another folder find one table. The name is the index's file
 * and root, then its stamp: a table of the same file's earlier contents
 * is known by the first part, and removed once the new one is made.
 */
export function tablePath(
  file: string,
  root: string,
  rebase: boolean,
  env: Record<string, string | undefined>,
): string {
  const st = statSync(file);
  const reads = rebase ? root : (ownRoot(file) ?? root);
  const lineage = hash([realpathSync(file), reads, rebase, TABLE_VERSION]);
  return join(tableCache(env), `${lineage}-${hash([st.size, st.mtimeMs])}.sqlite`);
}

const hash = (key: unknown[]) => createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 24);

/** Tables of the same index file and root made from its earlier contents: what a new table replaces. */
function removeEarlier(table: string, file: string, log: (line: string) => void): void {
  const name = basename(table);
  const lineage = name.slice(0, name.indexOf('-') + 1);
  const folder = dirname(table);
  for (const other of readdirSync(folder))
    if (other.startsWith(lineage) && other !== name) {
      rmSync(join(folder, other), { force: true });
      log(`removed ${other}, the table of what ${file} held before`);
    }
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
    try {
      removeEarlier(table, file, log);
    } catch {}
    return true;
  })().finally(() => making.delete(table));
  making.set(table, make);
  return make;
}
