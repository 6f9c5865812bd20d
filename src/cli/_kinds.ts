import { usage } from '../errors';
import { SYMBOL_KINDS as KINDS } from '../protocol/symbol-kinds';


/** `--kind class,function` → validated lower-case LSP symbol kind names. */
export function parseKinds(value: unknown): string[] | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const kinds = value.split(',').map((k) => k.trim().toLowerCase()).filter(Boolean);
  const bad = kinds.filter((k) => !KINDS.includes(k));
  if (bad.length) throw usage(`unknown symbol kind ${bad.map((b) => `'${b}'`).join(', ')}; kinds are: ${KINDS.join(', ')}`);
  return kinds;
}
