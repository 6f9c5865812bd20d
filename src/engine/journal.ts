/**
 * The journal of an edit, so that a daemon killed while it writes (kill -9,
 * out of memory) leaves the tree exactly as before or exactly as
 * after the edit, and nothing of lspq's in it. As git's lockfiles and
 * SQLite's rollback journal do: before the first file is touched, the plan
 * is recorded (each file's bytes before and after, and the names of the
 * temporary and backup files lspq will make beside it); once every file is
 * written, the record says so; when the files lspq made are gone, the
 * outcome is kept for the command to ask after, then the record removed.
 * The writer is known by its pid and start time, so a pid another process
 * took since is not mistaken for a writer still at work.
 *
 * Whoever starts next (the next daemon, or an edit without one) finishes an
 * edit recorded as written and takes back one that was not
 * (journal-recovery.ts).
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
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { bytesOf, type EditPlan } from '../lsp/workspace-edit';
import { readWorkspaceFile } from '../common/file-size';
import { processRuns } from '../common/process';
import { startedAt } from '../common/process-table';
import { crashPoint } from './fault';
import { messageOf } from '../common/errors';

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

export const RecordShape = z.object({
  id: z.string(),
  pid: z.number(),
  /** When the writer started (startedAt): a pid alone may name another process by the time anyone looks. */
  started: z.optional(z.string()),
  summary: z.string(),
  state: z.enum(['writing', 'written']),
  moves: z.array(MoveRecord),
  files: z.array(FileRecord),
});
export type JournalRecord = z.infer<typeof RecordShape>;
export type FileEntry = z.infer<typeof FileRecord>;

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

/** Where lspq's own files beside a file go while it writes: hidden, named for the file and this process. */
let made = 0;
export function temporaryNames(real: string): { temporary: string; backup: string } {
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
      const beside = names.get(f.path) ?? temporaryNames(f.path);
      return {
        path: f.path,
        ...(f.renamedTo !== undefined ? { renamedTo: f.renamedTo } : {}),
        before: keep(before),
        after: keep(after),
        ...beside,
      };
    });
    const started = startedAt(process.pid);
    const record: JournalRecord = {
      id: place.id,
      pid: process.pid,
      ...(started !== undefined ? { started } : {}),
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

  /**
   * The edit is over, written or taken back here: its outcome is kept, then
   * the record goes, then the bytes it points at. In that order a crash at
   * any instant leaves a record only with its bytes (a record whose bytes
   * are gone would be taken back against nothing), and a record found with
   * its outcome kept is known to be over.
   */
  end(written: boolean): void {
    keepOutcome(this.place.dir, { id: this.record.id, written, summary: this.record.summary });
    crashPoint('journal outcome kept');
    rmSync(this.file, { force: true });
    rmSync(this.blob, { force: true });
    crashPoint('journal removed');
  }
}

export function keepOutcome(dir: string, outcome: Outcome): void {
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
    if (writerRuns(parsed.data)) return `process ${parsed.data.pid} is still writing it (journal ${file})`;
    return `its journal ${file} is not settled yet`;
  } catch (err) {
    return `its journal ${file} cannot be read (${messageOf(err)})`;
  }
}

export function readOutcome(dir: string, id: string): Outcome | undefined {
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
  const got = readWorkspaceFile(path, 'source');
  return got.read ? got.bytes : undefined;
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

/**
 * Whether the process that wrote a record still runs: its pid, and where
 * the record says when it started, that start (a pid freed by a dead
 * process is soon another's, as orphans.ts knows its servers by more than
 * a pid).
 */
export function writerRuns(record: Pick<JournalRecord, 'pid' | 'started'>): boolean {
  if (record.pid === process.pid || !processRuns(record.pid)) return false;
  return record.started === undefined || startedAt(record.pid) === record.started;
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
