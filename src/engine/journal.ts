/**
 * The journal of an edit, so that a daemon killed while it writes (kill -9,
 * out of memory) leaves the tree exactly as before or exactly as
 * after the edit, and nothing of lspq's in it. As git's lockfiles and
 * SQLite's rollback journal do: before the first file is touched, the plan
 * is recorded (each file's bytes before and after, and the names of the
 * temporary and backup files lspq will make beside it); once every file is
 * written, the record says so; when the files lspq made are gone, the
 * record is removed and the outcome kept for the command to ask after.
 *
 * Whoever starts next (the next daemon, or an edit without one) finishes an
 * edit recorded as written (removes what lspq left beside the files) and
 * takes back one that was not: each file that holds the edit's bytes gets
 * its own back, a file another program wrote since is left as it is.
 *
 * The journal lives beside the daemon's socket, outside the user's tree.
 * It is synced to disk; the files an edit writes are not (as git does not
 * sync them), so a power loss is not covered: the promise is for a
 * process that dies, not a machine.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { bytesOf, type EditPlan } from '../lsp/workspace-edit';
import { processRuns } from '../common/process';
import { crashPoint } from './fault';

/** A file's bytes in the journal's blob: where and how long. */
const Slice = z.tuple([z.number(), z.number()]);

const FileRecord = z.object({
  path: z.string(),
  renamedTo: z.optional(z.string()),
  /** null: the edit creates it (before) or deletes it (after). */
  before: z.nullable(Slice),
  after: z.nullable(Slice),
  /** What lspq makes beside the file while it writes: removed whatever happens. */
  temporary: z.string(),
  backup: z.string(),
});

const MoveRecord = z.object({ from: z.string(), to: z.string(), made: z.optional(z.string()) });

const RecordShape = z.object({
  id: z.string(),
  pid: z.number(),
  summary: z.string(),
  state: z.enum(['writing', 'written']),
  moves: z.array(MoveRecord),
  files: z.array(FileRecord),
});
type JournalRecord = z.infer<typeof RecordShape>;
type FileEntry = z.infer<typeof FileRecord>;

const OutcomeShape = z.object({
  id: z.string(),
  written: z.boolean(),
  summary: z.string(),
  /** Files another program wrote after lspq's edit began: left as they are. */
  left: z.optional(z.array(z.string())),
  /** The command's whole output, when the daemon lived to render it. */
  output: z.optional(
    z.object({
      stdout: z.string(),
      stderr: z.optional(z.string()),
      exit: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
      warnings: z.optional(z.array(z.string())),
    }),
  ),
});
export type Outcome = z.infer<typeof OutcomeShape>;

/** Outcomes nobody asked for are removed after this long. */
const OUTCOME_KEEP_MS = 24 * 60 * 60_000;

/** Where lspq's own files beside a file go while it writes: hidden, named for the file and this process. */
let made = 0;
export function besideNames(real: string): { temporary: string; backup: string } {
  const stem = join(dirname(real), `.${basename(real)}.lspq-${process.pid}-${++made}`);
  return { temporary: `${stem}.tmp`, backup: `${stem}.orig` };
}

function writeDurably(path: string, bytes: Uint8Array | string): void {
  const temporary = `${path}.${process.pid}.new`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

export interface JournalPlace {
  /** The folder journals are kept in (beside the daemon's socket). */
  dir: string;
  /** The edit's id: the command asks after it by this if its daemon dies. */
  id: string;
  /** What to say of the edit once written ("renamed to 'x': 3 edits in 2 files"). */
  summary: string;
}

/** One edit's journal, from before its first write to after its last. */
export class Journal {
  private constructor(
    private readonly place: JournalPlace,
    private record: JournalRecord,
  ) {}

  private get file(): string {
    return join(this.place.dir, `${this.record.id}.json`);
  }

  private get blob(): string {
    return join(this.place.dir, `${this.record.id}.bytes`);
  }

  /** Records the plan (every file's bytes, the names lspq will make) before anything is written. */
  static begin(
    place: JournalPlace,
    plan: EditPlan,
    names: Map<string, { temporary: string; backup: string }>,
  ): Journal {
    mkdirSync(place.dir, { recursive: true, mode: 0o700 });
    const chunks: Uint8Array[] = [];
    let size = 0;
    const keep = (bytes: Uint8Array | null): [number, number] | null => {
      if (bytes === null) return null;
      chunks.push(bytes);
      size += bytes.length;
      return [size - bytes.length, bytes.length];
    };
    const files: FileEntry[] = plan.files.map((f) => {
      const { before, after } = bytesOf(f);
      const beside = names.get(f.path) ?? besideNames(f.path);
      return {
        path: f.path,
        ...(f.renamedTo !== undefined ? { renamedTo: f.renamedTo } : {}),
        before: keep(before),
        after: keep(after),
        ...beside,
      };
    });
    const record: JournalRecord = {
      id: place.id,
      pid: process.pid,
      summary: place.summary,
      state: 'writing',
      moves: (plan.moves ?? []).map((m) => ({ from: m.from, to: m.to })),
      files,
    };
    const journal = new Journal(place, record);
    writeDurably(journal.blob, Buffer.concat(chunks));
    writeDurably(journal.file, JSON.stringify(record));
    crashPoint('journal recorded');
    return journal;
  }

  /** A move is about to make folders up to `top`: recorded, so taking it back removes them. */
  movedMaking(index: number, top: string | undefined): void {
    const move = this.record.moves[index];
    if (!move || top === undefined) return;
    move.made = top;
    writeDurably(this.file, JSON.stringify(this.record));
  }

  /** Every file is written: from here on, whoever finds this finishes the edit instead of taking it back. */
  written(): void {
    this.record = { ...this.record, state: 'written' };
    writeDurably(this.file, JSON.stringify(this.record));
    crashPoint('journal marked written');
  }

  /** The edit is over, written or taken back here: the record goes, its outcome stays for the command. */
  end(written: boolean): void {
    keepOutcome(this.place.dir, { id: this.record.id, written, summary: this.record.summary });
    rmSync(this.blob, { force: true });
    rmSync(this.file, { force: true });
    crashPoint('journal removed');
  }
}

function keepOutcome(dir: string, outcome: Outcome): void {
  const outcomes = join(dir, 'outcomes');
  mkdirSync(outcomes, { recursive: true, mode: 0o700 });
  writeDurably(join(outcomes, `${outcome.id}.json`), JSON.stringify(outcome));
}

/** The command's whole output, added to its edit's outcome once rendered (a daemon killed after that still told it all). */
export function recordOutput(dir: string, id: string, output: NonNullable<Outcome['output']>): void {
  const found = readOutcome(dir, id);
  if (found) keepOutcome(dir, { ...found, output });
}

/**
 * What is known of an edit whose journal is still there after recovery: it
 * could not be read, or another live process is writing it. Said to the
 * command instead of "nothing was written", which would not be known.
 */
export function unsettled(dir: string, id: string): string | undefined {
  if (!/^[\w-]+$/.test(id)) return undefined;
  const file = join(dir, `${id}.json`);
  if (!existsSync(file)) return undefined;
  try {
    const parsed = RecordShape.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return `its journal ${file} cannot be read`;
    if (parsed.data.pid !== process.pid && processRuns(parsed.data.pid))
      return `process ${parsed.data.pid} is still writing it (journal ${file})`;
    return `its journal ${file} is not settled yet`;
  } catch (err) {
    return `its journal ${file} cannot be read (${(err as Error).message})`;
  }
}

function readOutcome(dir: string, id: string): Outcome | undefined {
  if (!/^[\w-]+$/.test(id)) return undefined;
  try {
    const parsed = OutcomeShape.safeParse(JSON.parse(readFileSync(join(dir, 'outcomes', `${id}.json`), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What became of edit `id`, once: the record is removed as it is read. */
export function takeOutcome(dir: string, id: string): Outcome | undefined {
  const found = readOutcome(dir, id);
  if (found) rmSync(join(dir, 'outcomes', `${id}.json`), { force: true });
  return found;
}

/** A file's bytes now, or undefined when it cannot be read. */
export function readBytesNow(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

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

/**
 * Removes the empty folders from `deepest` up to `top`, which a move made;
 * one that is not empty (another program wrote into it) stops it, kept.
 */
export function removeMade(deepest: string, top: string): void {
  for (let d = deepest; d.length >= top.length; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
    if (d === top) return;
  }
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
      log(`journal ${file} is unreadable (${(err as Error).message}); left for a person to look at`);
      continue;
    }
    // Its writer still runs (an edit of --no-daemon in another process): not ours to settle.
    if (record.pid !== process.pid && processRuns(record.pid)) {
      log(`journal ${file} (${record.summary}) is still being written by process ${record.pid}: left to it`);
      continue;
    }
    const blob = join(dir, `${record.id}.bytes`);
    const outcome = settle(record, readBytesNow(blob) ?? new Uint8Array());
    keepOutcome(dir, outcome);
    rmSync(blob, { force: true });
    rmSync(file, { force: true });
    log(
      `an interrupted edit (${record.summary}) was ${outcome.written ? 'finished' : 'taken back'}${outcome.left ? `; left as another program wrote them: ${outcome.left.join(', ')}` : ''}`,
    );
    outcomes.push(outcome);
  }
  pruneOutcomes(dir);
  return outcomes;
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

/** Links the original beside itself (a backup lspq can rename back); false where the file system has no hard links. */
export function linkBeside(real: string, backup: string): boolean {
  try {
    linkSync(real, backup);
    return true;
  } catch {
    return false;
  }
}
