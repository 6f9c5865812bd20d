/**
 * Recovery of the journal (journal.ts): whoever starts next (the next
 * daemon, or an edit without one) finishes an edit recorded as written
 * (removes what lspq left beside the files) and takes back one that was
 * not: each file that holds the edit's bytes gets its own back, a file
 * another program wrote since is left as it is. An edit found with its
 * outcome kept was over when its writer died, and is only cleared.
 */
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import {
  type FileEntry,
  type JournalRecord,
  keepOutcome,
  type Outcome,
  readBytesNow,
  readOutcome,
  RecordShape,
  removeMade,
  writerRuns,
} from './journal';
import { messageOf } from '../common/errors';

/** Outcomes nobody asked for are removed after this long. */
const OUTCOME_KEEP_MS = 24 * 60 * 60_000;

const same = (a: Uint8Array | undefined, b: Uint8Array | null) =>
  a !== undefined && b !== null && Buffer.compare(a, b) === 0;

/** `bytes` into `path` whole, through a temporary file beside it that is removed whatever happens. */
function putWhole(path: string, bytes: Uint8Array, temporary: string, mode: number | undefined): void {
  try {
    const fd = openSync(temporary, 'wx', mode ?? 0o644);
    try {
      writeSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

const modeOf = (path: string) => {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
};

/**
 * Takes one file back to its bytes before the edit, if it holds the edit's;
 * returns false where another program wrote it since (it is left so).
 */
function takeBackFile(f: FileEntry, bytes: Uint8Array): boolean {
  const slice = (s: [number, number] | null) => (s === null ? null : bytes.subarray(s[0], s[0] + s[1]));
  const before = slice(f.before);
  const after = slice(f.after);
  if (f.renamedTo !== undefined && existsSync(f.renamedTo) && !existsSync(f.path)) renameSync(f.renamedTo, f.path);
  const now = readBytesNow(f.path);
  if (before === null) {
    // Created by the edit: removed if it is still what the edit wrote.
    if (now === undefined) return true;
    if (!same(now, after)) return false;
    unlinkSync(f.path);
    return true;
  }
  if (after === null) {
    // Deleted by the edit: its bytes come back.
    if (now !== undefined) return same(now, before);
    putWhole(f.path, before, f.temporary, undefined);
    return true;
  }
  // Not there: the edit never reached it (a move it follows was not made).
  if (now === undefined || same(now, before)) return true;
  if (!same(now, after)) return false;
  // The original, linked beside it, goes back in place: its inode, with any write that reached it.
  if (existsSync(f.backup)) {
    const kept = same(readBytesNow(f.backup), before);
    renameSync(f.backup, f.path);
    return kept;
  }
  putWhole(f.path, before, f.temporary, modeOf(f.path));
  return true;
}

/** Finishes or takes back one interrupted edit; returns its outcome. */
function settle(record: JournalRecord, bytes: Uint8Array): Outcome {
  const left: string[] = [];
  if (record.state === 'writing') {
    for (const f of [...record.files].reverse()) if (!takeBackFile(f, bytes)) left.push(f.renamedTo ?? f.path);
    for (const m of [...record.moves].reverse()) {
      if (existsSync(m.to) && !existsSync(m.from)) renameSync(m.to, m.from);
      if (m.made) removeMade(dirname(m.to), m.made);
    }
  }
  for (const f of record.files) {
    rmSync(f.temporary, { force: true });
    rmSync(f.backup, { force: true });
  }
  return {
    id: record.id,
    written: record.state === 'written',
    summary: record.summary,
    ...(left.length ? { left } : {}),
  };
}

/**
 * Every interrupted edit in `dir` whose writer is gone, finished or taken
 * back; their outcomes kept for the commands that ask. Old outcomes nobody
 * asked for are removed.
 */
export function recover(dir: string, log: (line: string) => void): Outcome[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const outcomes: Outcome[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(dir, name);
    let record: JournalRecord;
    try {
      const parsed = RecordShape.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'not a journal');
      record = parsed.data;
    } catch (err) {
      log(`journal ${file} is unreadable (${messageOf(err)}); left for a person to look at`);
      continue;
    }
    // Its writer still runs (an edit of --no-daemon in another process): not ours to settle.
    if (writerRuns(record)) {
      log(`journal ${file} (${record.summary}) is still being written by process ${record.pid}: left to it`);
      continue;
    }
    const blob = join(dir, `${record.id}.bytes`);
    // Its outcome kept: the edit was over, its files final, when its writer died removing the record.
    const ended = readOutcome(dir, record.id);
    if (ended) {
      for (const f of record.files) {
        rmSync(f.temporary, { force: true });
        rmSync(f.backup, { force: true });
      }
      rmSync(file, { force: true });
      rmSync(blob, { force: true });
      log(`an edit (${record.summary}) that was over when its writer died is cleared`);
      continue;
    }
    const outcome = settle(record, readBytesNow(blob) ?? new Uint8Array());
    keepOutcome(dir, outcome);
    rmSync(blob, { force: true });
    rmSync(file, { force: true });
    log(
      `an interrupted edit (${record.summary}) was ${outcome.written ? 'finished' : 'taken back'}${outcome.left ? `; left as another program wrote them: ${outcome.left.join(', ')}` : ''}`,
    );
    outcomes.push(outcome);
  }
  pruneLeftovers(dir, names);
  pruneOutcomes(dir);
  return outcomes;
}

/** How old a journal's file with no record must be to be a leftover, not one being written (begin writes its bytes first). */
const LEFTOVER_MS = 60_000;

/**
 * The bytes of an edit whose record is gone (its writer died after removing
 * the record, or before writing it), and a record half written: removed.
 */
function pruneLeftovers(dir: string, names: string[]): void {
  const now = Date.now();
  const known = new Set(names);
  for (const name of names) {
    const leftover = name.endsWith('.new') || (name.endsWith('.bytes') && !known.has(`${name.slice(0, -6)}.json`));
    if (!leftover) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > LEFTOVER_MS) unlinkSync(join(dir, name));
    } catch {}
  }
}

function pruneOutcomes(dir: string): void {
  const outcomes = join(dir, 'outcomes');
  let names: string[] = [];
  try {
    names = readdirSync(outcomes);
  } catch {
    return;
  }
  const now = Date.now();
  for (const n of names) {
    try {
      if (now - statSync(join(outcomes, n)).mtimeMs > OUTCOME_KEEP_MS) unlinkSync(join(outcomes, n));
    } catch {}
  }
}
