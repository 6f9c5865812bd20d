/**
 * Rows read from an index table, checked column by column rather than cast:
 * bun:sqlite types a row `unknown`, and a table written by another build or
 * damaged on disk must fail as unreadable, not answer with wrong places.
 */
import type { PositionEncoding } from '../lsp/position';

const COLUMNS = {
  text: (v: unknown): v is string => typeof v === 'string',
  int: (v: unknown): v is number => typeof v === 'number',
  real: (v: unknown): v is number => typeof v === 'number',
  'text?': (v: unknown): v is string | null => v === null || typeof v === 'string',
  'int?': (v: unknown): v is number | null => v === null || typeof v === 'number',
  encoding: (v: unknown): v is PositionEncoding => v === 'utf-8' || v === 'utf-16' || v === 'utf-32',
};

type Column = keyof typeof COLUMNS;
type ValueOf<C extends Column> = (typeof COLUMNS)[C] extends (v: unknown) => v is infer T ? T : never;
export type Row<S extends Record<string, Column>> = { [K in keyof S]: ValueOf<S[K]> };

function isRow<S extends Record<string, Column>>(shape: S, row: unknown): row is Row<S> {
  if (typeof row !== 'object' || row === null) return false;
  for (const [name, column] of Object.entries(shape)) if (!COLUMNS[column](Reflect.get(row, name))) return false;
  return true;
}

/** One row, or undefined for none; throws on a row of another shape. */
export function rowOf<S extends Record<string, Column>>(shape: S, row: unknown, table: string): Row<S> | undefined {
  if (row === null || row === undefined) return undefined;
  if (isRow(shape, row)) return row;
  throw new Error(`${table} has a row of another shape (${JSON.stringify(row)})`);
}

/** Every row, each checked; throws on the first of another shape. */
export function rowsOf<S extends Record<string, Column>>(shape: S, rows: unknown[], table: string): Row<S>[] {
  return rows.map((row) => {
    if (isRow(shape, row)) return row;
    throw new Error(`${table} has a row of another shape (${JSON.stringify(row)})`);
  });
}
