/**
 * A SCIP index as an on-disk table (SQLite, part of Bun): converted once,
 * then each question reads only the rows it needs (a symbol's
 * occurrences, a document's occurrences around a line), as Sourcegraph
 * answers from rows rather than decoding an index per question. The daemon
 * holds a connection, not the index: its memory stays flat however large
 * the index or how many. The SCIP file stays what CI uploads and --fetch
 * downloads; a symbol's documentation is still read from it on a hover.
 */
import { Database } from 'bun:sqlite';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import type { PositionEncoding } from '../lsp/position';
import {
  type Found,
  foldName,
  IndexAnswers,
  type LeftOut,
  innermost,
  readInfo,
  type Related,
  searchable,
} from './index-answers';
import { lastName, type ScipIndex } from './scip-index';
import { ENCLOSING_STRIDE, type Enclosure, type ScipOccurrence, type ScipSymbol, STRIDE } from './scip-types';
import { nextTurn } from '../common/turns';
import { rowOf, rowsOf } from './table-rows';

/** Rows of the symbol table a name search reads between turns of the event loop: 2-3 ms of the thread (20,000 held it 10 ms). */
const NAMES_PER_TURN = 5_000;

/** Bumped when the tables' shape changes: a table of another version is converted again. */
export const TABLE_VERSION = 5;

/** A source file under the root the index's build left out (Go's other platforms), with the words it writes in code. */
export interface LeftOutFile {
  path: string;
  size: number;
  mtimeMs: number;
  words: string[];
}

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE docs(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, encoding TEXT NOT NULL);
CREATE TABLE syms(id INTEGER PRIMARY KEY, symbol TEXT NOT NULL UNIQUE, name TEXT NOT NULL, folded TEXT NOT NULL,
  display TEXT, doc_start INTEGER, doc_end INTEGER, searchable INTEGER NOT NULL);
CREATE TABLE occ(sym INTEGER NOT NULL, doc INTEGER NOT NULL, line INTEGER NOT NULL, ch INTEGER NOT NULL,
  end_line INTEGER NOT NULL, end_ch INTEGER NOT NULL, roles INTEGER NOT NULL);
CREATE TABLE rel(sym INTEGER NOT NULL, target TEXT NOT NULL, ref INTEGER NOT NULL, impl INTEGER NOT NULL,
  typedef INTEGER NOT NULL);
CREATE TABLE enclosing(doc INTEGER NOT NULL, sym INTEGER NOT NULL, line INTEGER NOT NULL, ch INTEGER NOT NULL,
  end_line INTEGER NOT NULL, end_ch INTEGER NOT NULL, name_line INTEGER NOT NULL, name_ch INTEGER NOT NULL);
CREATE TABLE left_out(id INTEGER PRIMARY KEY, path TEXT NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL);
CREATE TABLE left_out_words(word TEXT NOT NULL, file INTEGER NOT NULL);
`;

const INDEXES = `
CREATE INDEX occ_by_sym ON occ(sym);
CREATE INDEX occ_by_doc ON occ(doc, line);
CREATE INDEX rel_by_sym ON rel(sym);
CREATE INDEX enclosing_by_doc ON enclosing(doc, line);
CREATE INDEX rel_by_target ON rel(target);
CREATE INDEX left_out_by_word ON left_out_words(word);
`;

/**
 * Writes `index` as a table at `out`, whole or not at all (a temporary file
 * renamed into place); `leftOut`, where known, the files its build left out.
 */
export function writeTable(index: ScipIndex, out: string, leftOut?: LeftOutFile[]): void {
  const temporary = `${out}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const db = new Database(temporary, { create: true });
  try {
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
    db.exec(SCHEMA);
    const { documents, names, infos, root, tools } = index.contents();
    // Symbols numbered as the index numbers them; those with information but no occurrence after.
    const ids = new Map(names.map((symbol, id) => [symbol, id] as const));
    for (const symbol of infos.keys()) if (!ids.has(symbol)) ids.set(symbol, ids.size);
    db.transaction(() => {
      const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
      meta.run('version', String(TABLE_VERSION));
      meta.run('root', root);
      meta.run('tools', JSON.stringify(tools));
      const sym = db.prepare('INSERT INTO syms VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      const rel = db.prepare('INSERT INTO rel VALUES (?, ?, ?, ?, ?)');
      for (const [symbol, id] of ids) {
        const info = infos.get(symbol);
        const display = info?.displayName ?? null;
        const [start, end] = info?.at ?? [null, null];
        const name = display ?? lastName(symbol);
        // Folded here, as the search folds its query: SQLite's lower() folds ASCII only (Ärger would miss ärger).
        sym.run(id, symbol, name, foldName(name), display, start, end, info && searchable(symbol) ? 1 : 0);
        for (const r of info?.relationships ?? [])
          rel.run(id, r.symbol, r.reference ? 1 : 0, r.implementation ? 1 : 0, r.typeDefinition ? 1 : 0);
      }
      const doc = db.prepare('INSERT INTO docs VALUES (?, ?, ?)');
      // Columns in the order of an occurrence's numbers (scip-types' STRIDE), each row one slice of them.
      const occ = db.prepare(
        'INSERT INTO occ(doc, line, ch, end_line, end_ch, sym, roles) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      // Columns in the order of an enclosed range's numbers (scip-types' ENCLOSING_STRIDE).
      const enclosing = db.prepare(
        'INSERT INTO enclosing(doc, sym, line, ch, end_line, end_ch, name_line, name_ch) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      let d = 0;
      for (const document of documents.values()) {
        doc.run(d, document.path, document.encoding);
        const o = document.occurrences;
        for (let i = 0; i < o.length; i += STRIDE) occ.run(d, ...o.subarray(i, i + STRIDE));
        const e = document.enclosing;
        for (let i = 0; i < e.length; i += ENCLOSING_STRIDE) enclosing.run(d, ...e.subarray(i, i + ENCLOSING_STRIDE));
        d++;
      }
      if (leftOut) {
        meta.run('left_out', '1');
        const file = db.prepare('INSERT INTO left_out VALUES (?, ?, ?, ?)');
        const word = db.prepare('INSERT INTO left_out_words VALUES (?, ?)');
        for (const [id, f] of leftOut.entries()) {
          file.run(id, f.path, f.size, f.mtimeMs);
          for (const w of f.words) word.run(w, id);
        }
      }
    })();
    db.exec(INDEXES);
    db.close();
    renameSync(temporary, out);
  } catch (err) {
    db.close();
    rmSync(temporary, { force: true });
    throw err;
  }
}

const PLACE = { line: 'int', ch: 'int', end_line: 'int', end_ch: 'int', roles: 'int' } as const;

/** An index answered from its table: a connection and a few prepared statements. */
export class TableIndex extends IndexAnswers {
  root: string;
  tools: string[];
  private readonly db: Database;
  private readonly docs = new Map<string, { id: number; encoding: PositionEncoding } | null>();

  /** `file`: the SCIP file the table was made from (a hover reads its documentation there). */
  constructor(
    readonly file: string,
    private readonly table: string,
  ) {
    super();
    this.db = new Database(table, { readonly: true });
    const meta = (key: string) =>
      rowOf({ value: 'text' }, this.db.query('SELECT value FROM meta WHERE key = ?').get(key), table)?.value;
    if (meta('version') !== String(TABLE_VERSION)) {
      this.db.close();
      throw new Error(`${table} is a table of another version`);
    }
    this.root = meta('root') ?? '';
    const tools: unknown = JSON.parse(meta('tools') ?? '[]');
    this.tools = Array.isArray(tools) ? tools.filter((t) => typeof t === 'string') : [];
  }

  close(): void {
    this.db.close();
  }

  /** The left-out files as the table has them, read at the first ask: each is looked at on every ask. */
  private leftOutFiles: { path: string; size: number; mtime: number }[] | undefined;

  override leftOut(name: string): LeftOut | undefined {
    const known = rowOf(
      { value: 'text' },
      this.db.query("SELECT value FROM meta WHERE key = 'left_out'").get(),
      this.table,
    );
    if (known?.value !== '1') return undefined;
    this.leftOutFiles ??= rowsOf(
      { path: 'text', size: 'int', mtime: 'real' },
      this.db.query('SELECT path, size, mtime FROM left_out').all(),
      this.table,
    );
    // A file changed since may write it now, or no longer: its words in the table are its old ones.
    const changed = new Set(
      this.leftOutFiles
        .filter((f) => {
          try {
            const st = statSync(f.path);
            return st.size !== f.size || st.mtimeMs !== f.mtime;
          } catch {
            return false;
          }
        })
        .map((f) => f.path),
    );
    const writing = rowsOf(
      { path: 'text' },
      this.db.query('SELECT f.path FROM left_out_words w JOIN left_out f ON f.id = w.file WHERE w.word = ?').all(name),
      this.table,
    )
      .map((r) => r.path)
      .filter((p) => !changed.has(p) && existsSync(p));
    return { writing: writing.sort(), changed: [...changed].sort() };
  }

  document(path: string): { id: number; encoding: PositionEncoding } | undefined {
    let known = this.docs.get(path);
    if (known === undefined) {
      const row = this.db.query('SELECT id, encoding FROM docs WHERE path = ?').get(path);
      known = rowOf({ id: 'int', encoding: 'encoding' }, row, this.table) ?? null;
      this.docs.set(path, known);
    }
    return known ?? undefined;
  }

  at(path: string, line: number, character: number): ScipOccurrence | undefined {
    const doc = this.document(path);
    if (!doc) return undefined;
    const rows = this.db
      .query(
        `SELECT s.symbol, o.line, o.ch, o.end_line, o.end_ch, o.roles FROM occ o JOIN syms s ON s.id = o.sym
         WHERE o.doc = ? AND o.line <= ? AND o.end_line >= ?`,
      )
      .all(doc.id, line, line);
    const found = innermost(
      rowsOf({ symbol: 'text', ...PLACE }, rows, this.table).map((r) => ({
        line: r.line,
        character: r.ch,
        endLine: r.end_line,
        endCharacter: r.end_ch,
        r,
      })),
      line,
      character,
    );
    if (!found) return undefined;
    const { r, ...range } = found;
    return { ...range, symbol: r.symbol, roles: r.roles };
  }

  private readonly packages = new Map<string, string | null>();

  protected packageOf(path: string): string | undefined {
    let known = this.packages.get(path);
    if (known === undefined) {
      const doc = this.document(path);
      const row = doc
        ? this.db
            .query(
              `SELECT s.symbol FROM occ o JOIN syms s ON s.id = o.sym
               WHERE o.doc = ? AND o.roles & 1 AND s.symbol LIKE '%/' ORDER BY o.line, o.ch LIMIT 1`,
            )
            .get(doc.id)
        : null;
      known = rowOf({ symbol: 'text' }, row, this.table)?.symbol ?? null;
      this.packages.set(path, known);
    }
    return known ?? undefined;
  }

  protected enclosuresOn(path: string, line: number): Enclosure[] {
    const doc = this.document(path);
    if (!doc) return [];
    const rows = this.db
      .query(
        `SELECT s.symbol, e.line, e.ch, e.end_line, e.end_ch, e.name_line, e.name_ch FROM enclosing e
         JOIN syms s ON s.id = e.sym WHERE e.doc = ? AND e.line <= ? AND e.end_line >= ?`,
      )
      .all(doc.id, line, line);
    const shape = {
      symbol: 'text',
      line: 'int',
      ch: 'int',
      end_line: 'int',
      end_ch: 'int',
      name_line: 'int',
      name_ch: 'int',
    } as const;
    return rowsOf(shape, rows, this.table).map((r) => ({
      symbol: r.symbol,
      line: r.line,
      character: r.ch,
      endLine: r.end_line,
      endCharacter: r.end_ch,
      name: { line: r.name_line, character: r.name_ch },
    }));
  }

  info(symbol: string): ScipSymbol | undefined {
    const row = rowOf(
      { display: 'text?', doc_start: 'int?', doc_end: 'int?' },
      this.db.query('SELECT display, doc_start, doc_end FROM syms WHERE symbol = ?').get(symbol),
      this.table,
    );
    if (!row || row.doc_start === null || row.doc_end === null) return undefined;
    const known = { relationships: this.relationships(symbol), ...(row.display ? { displayName: row.display } : {}) };
    return readInfo(this.file, [row.doc_start, row.doc_end], known);
  }

  protected occurrencesOf(symbol: string): Found[] {
    const rows = this.db
      .query(
        `SELECT d.path, d.encoding, o.line, o.ch, o.end_line, o.end_ch, o.roles FROM occ o JOIN docs d ON d.id = o.doc
         WHERE o.sym = (SELECT id FROM syms WHERE symbol = ?)`,
      )
      .all(symbol);
    return rowsOf({ path: 'text', encoding: 'encoding', ...PLACE }, rows, this.table).map((r) => ({
      place: {
        path: r.path,
        encoding: r.encoding,
        line: r.line,
        character: r.ch,
        endLine: r.end_line,
        endCharacter: r.end_ch,
      },
      roles: r.roles,
    }));
  }

  protected relationships(symbol: string): ScipSymbol['relationships'] {
    const rows = this.db
      .query('SELECT target, ref, impl, typedef FROM rel WHERE sym = (SELECT id FROM syms WHERE symbol = ?)')
      .all(symbol);
    const shape = { target: 'text', ref: 'int', impl: 'int', typedef: 'int' } as const;
    return rowsOf(shape, rows, this.table).map((r) => ({
      symbol: r.target,
      reference: r.ref === 1,
      implementation: r.impl === 1,
      typeDefinition: r.typedef === 1,
    }));
  }

  protected related(symbol: string): Related[] {
    const rows = this.db
      .query('SELECT s.symbol, r.ref, r.impl FROM rel r JOIN syms s ON s.id = r.sym WHERE r.target = ?')
      .all(symbol);
    return rowsOf({ symbol: 'text', ref: 'int', impl: 'int' }, rows, this.table).map((r) => ({
      symbol: r.symbol,
      reference: r.ref === 1,
      implementation: r.impl === 1,
    }));
  }

  /**
   * A scan of every name: the Go standard library's 90 ms in one query held
   * every other question, so it is read a range of rows at a time.
   */
  protected async named(folded: string): Promise<{ name: string; symbol: string }[]> {
    const last =
      rowOf({ last: 'int?' }, this.db.query('SELECT max(id) AS last FROM syms').get(), this.table)?.last ?? null;
    const slice = this.db.query(
      'SELECT name, symbol FROM syms WHERE id >= ? AND id < ? AND searchable = 1 AND instr(folded, ?) > 0',
    );
    const out: { name: string; symbol: string }[] = [];
    // Symbols are numbered from 0, as the index numbers them.
    for (let from = 0; last !== null && from <= last; from += NAMES_PER_TURN) {
      if (from > 0) await nextTurn();
      out.push(...rowsOf({ name: 'text', symbol: 'text' }, slice.all(from, from + NAMES_PER_TURN, folded), this.table));
    }
    return out;
  }
}
