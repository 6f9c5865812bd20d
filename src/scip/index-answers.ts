/**
 * The questions an index answers (definitions, references,
 * implementations, type definitions, a symbol search), written once over
 * what any store of an index gives: a symbol's occurrences and its
 * relationships. The store is an index read into memory (scip-index.ts)
 * or its on-disk table (index-table.ts).
 */
import type { PositionEncoding } from '../lsp/position';
import { ROLE_DEFINITION } from './scip-schema';
import { closeSync, openSync, readSync } from 'node:fs';
import {
  type Enclosure,
  isLocal,
  RawSymbolShape,
  type ScipOccurrence,
  type ScipPlace,
  type ScipSymbol,
  type SymbolPlace,
  types,
} from './scip-types';
import { turnEvery } from '../common/turns';

/** Symbols whose definitions a name search reads between turns of the event loop. */
const DEFINITIONS_PER_TURN = 256;

/** An occurrence where it is: its place, and its roles. */
export interface Found {
  place: ScipPlace;
  roles: number;
}

/** The symbols that name another in a relationship, seen from the one they name. */
export interface Related {
  symbol: string;
  reference: boolean;
  implementation: boolean;
}

/** What an index's build left out that bears on a name: the files that write it, and those changed since (unknown). */
export interface LeftOut {
  writing: string[];
  changed: string[];
}

/**
 * Every symbol these take and give is its key (scip-types' symbolKey): a
 * SCIP local is its document's alone, so `local 5` of two files are two.
 */
export abstract class IndexAnswers {
  abstract readonly file: string;
  abstract root: string;
  abstract tools: string[];
  /** A document of the index, by absolute path: its position encoding; undefined when the index does not hold it. */
  abstract document(path: string): { encoding: PositionEncoding } | undefined;
  /** The innermost occurrence at a 0-based place of a document (characters in its encoding). */
  abstract at(path: string, line: number, character: number): ScipOccurrence | undefined;
  /** What the indexer said of a symbol: documentation, signature, relationships. */
  abstract info(symbol: string): ScipSymbol | undefined;
  /** The ranges definitions of a document enclose that reach over a 0-based line. */
  protected abstract enclosuresOn(path: string, line: number): Enclosure[];
  protected abstract occurrencesOf(symbol: string): Found[];
  /** The package or module a document defines (its first definition of a symbol ending `/`), if it names one. */
  protected abstract packageOf(path: string): string | undefined;
  protected abstract relationships(symbol: string): ScipSymbol['relationships'];
  protected abstract related(symbol: string): Related[];
  /** Declared symbols (not locals, parameters, type parameters or files) whose folded name holds `folded`. */
  protected abstract named(folded: string): Promise<{ name: string; symbol: string }[]>;

  /**
   * The files under the root the index's build left out (Go's other
   * platforms) that bear on `name`: those that wrote it in code when the
   * index was built, and those changed since. Undefined where the index
   * does not know what its build left out.
   */
  leftOut(_name: string): LeftOut | undefined {
    return undefined;
  }

  /** Where the symbol is defined in the index; empty for one defined outside the project (the library's). */
  definitions(symbol: string): SymbolPlace[] {
    return this.occurrencesOf(symbol)
      .filter(({ roles }) => roles & ROLE_DEFINITION)
      .map(({ place }) => ({ ...place, symbol }));
  }

  /**
   * Every occurrence of the symbol, and of the symbols the indexer says are
   * references of it (a class's member and the interface member it
   * implements). Without `includeDeclaration`, the symbol's own
   * definitions are left out, as the server's answer leaves out what its
   * definition gives: a related symbol's definition stays, a use of it.
   */
  references(symbol: string, includeDeclaration: boolean): SymbolPlace[] {
    const symbols = new Set([symbol]);
    for (const r of this.relationships(symbol)) if (r.reference) symbols.add(r.symbol);
    for (const r of this.related(symbol)) if (r.reference) symbols.add(r.symbol);
    // A method related only as implementation (scip-go's): the uses through the interface methods it implements
    // (`through`), and of an interface method those of each method implementing it, as gopls counts them; not
    // their declarations.
    const through = new Set<string>();
    const uses = new Set<string>();
    if (MEMBER.test(symbol)) {
      for (const r of this.relationships(symbol))
        if (r.implementation && !symbols.has(r.symbol)) {
          through.add(r.symbol);
          uses.add(r.symbol);
        }
      for (const r of this.related(symbol)) if (r.implementation && !symbols.has(r.symbol)) uses.add(r.symbol);
    }
    // gopls was seen to count the uses through an interface in the method's own package only (its tests in the
    // package, not an external test package's): the packages of the symbol's definitions.
    const packages = new Set(
      through.size > 0 ? this.definitions(symbol).map((d) => this.packageOf(d.path) ?? d.path) : [],
    );
    const out: SymbolPlace[] = [];
    for (const s of [...symbols, ...uses])
      for (const { place, roles } of this.occurrencesOf(s)) {
        if (roles & ROLE_DEFINITION && (uses.has(s) || (!includeDeclaration && s === symbol))) continue;
        if (through.has(s) && !packages.has(this.packageOf(place.path) ?? place.path)) continue;
        out.push({ ...place, symbol: s });
      }
    // scip-typescript records `new Box()` as a use of Box's constructor; a server, as a reference of Box.
    if (symbol.endsWith('#')) {
      const made = `${symbol}\`<constructor>\`().`;
      for (const { place, roles } of this.occurrencesOf(made))
        if (!(roles & ROLE_DEFINITION)) out.push({ ...place, symbol: made });
    }
    return out;
  }

  /** The definitions of the symbols that say they implement this one. */
  implementations(symbol: string): SymbolPlace[] {
    return this.related(symbol)
      .filter((r) => r.implementation)
      .flatMap((r) => this.definitions(r.symbol));
  }

  /** The definitions of the types the indexer says this symbol has. */
  typeDefinitions(symbol: string): SymbolPlace[] {
    return this.relationships(symbol)
      .filter((r) => r.typeDefinition)
      .flatMap((r) => this.definitions(r.symbol));
  }

  /**
   * The definition a 0-based place sits in: the innermost whose enclosed
   * range (a function's body, a class's) holds it, not the one whose name
   * it is (a declaration is in what contains it), and never a file's or a
   * package's own; undefined where none holds it.
   */
  enclosingAt(path: string, line: number, character: number): string | undefined {
    const around = this.enclosuresOn(path, line).filter(
      (e) => !/[/]$/.test(e.symbol) && !(e.name.line === line && e.name.character === character),
    );
    return innermost(around, line, character)?.symbol;
  }

  /** Declarations whose name contains `query`, case-insensitive, each with its definitions. */
  async search(query: string): Promise<{ name: string; symbol: string; place: ScipPlace }[]> {
    const found: { name: string; symbol: string; place: ScipPlace }[] = [];
    // Each symbol's definitions are a query of their own: a turn of the event loop every few hundred.
    const turn = turnEvery(DEFINITIONS_PER_TURN);
    for (const { name, symbol } of await this.named(foldName(query))) {
      for (const place of this.definitions(symbol)) found.push({ name, symbol, place });
      await turn();
    }
    return found;
  }
}

/**
 * A symbol's SymbolInformation read from the index file where it is
 * (`at`: its bytes), with what is already known of it: its documentation
 * and signature are read only when a hover asks.
 */
export function readInfo(
  file: string,
  at: readonly [number, number],
  known: Pick<ScipSymbol, 'displayName' | 'relationships'>,
): ScipSymbol {
  const [start, end] = at;
  const bytes = Buffer.alloc(end - start);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, bytes, 0, bytes.length, start);
  } finally {
    closeSync(fd);
  }
  // protobufjs holds the fields to the schema's types; the check names them for TypeScript.
  const decoded = RawSymbolShape.safeParse(types().symbol.decode(bytes));
  const raw = decoded.success ? decoded.data : {};
  const sig = raw.signatureDocumentation;
  return {
    documentation: raw.documentation ?? [],
    ...(sig?.text ? { signature: { language: sig.language ?? '', text: sig.text } } : {}),
    ...(known.displayName ? { displayName: known.displayName } : {}),
    relationships: known.relationships,
  };
}

/** A type's method or interface member (`Router#ServeHTTP().`, `matcher#Match.`), not a type (`Router#`). */
const MEMBER = /#(?:[^#`]+|`(?:[^`]|``)+`)(?:\([^)]*\))?\.$/;

/** A name as a case-insensitive search compares it: every letter's case folded, not ASCII's alone (Ärger is ärger). */
export const foldName = (name: string) => name.toLowerCase();

/** Whether a symbol is a declaration a search lists: not a local, a parameter, a type parameter or a file. */
export const searchable = (symbol: string) => !isLocal(symbol) && !/[)\]/]$/.test(symbol);

/** The innermost of the occurrences around a place (rust-analyzer also records a module over its whole file). */
export function innermost<T extends { line: number; character: number; endLine: number; endCharacter: number }>(
  candidates: Iterable<T>,
  line: number,
  character: number,
): T | undefined {
  const size = (o: T) => (o.endLine - o.line) * 1_000_000 + (o.endCharacter - o.character);
  let best: T | undefined;
  for (const o of candidates) {
    const inside =
      (o.line < line || o.character <= character) &&
      (o.endLine > line || (o.endLine === line && o.endCharacter >= character));
    if (inside && (!best || size(o) < size(best))) best = o;
  }
  return best;
}
