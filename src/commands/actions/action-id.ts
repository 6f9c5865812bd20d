/**
 * An action's id: six letters derived from what was listed (the server
 * that offers it, its title, its kind and its edit as offered, its files
 * named from the root), so the same offer has the same id on every call,
 * wherever the checkout is, and `--apply ID` applies what was listed,
 * however a server orders or grows its list. Pure.
 */
import { createHash } from 'node:crypto';

/** Consonants only: an id is never a number (`--apply 2` is one) and never spells a word. */
const LETTERS = 'bcdfghjkmnpqrstvwxz';
const ID_LENGTH = 6;

/** An id as `--apply` takes it. */
export const ACTION_ID = new RegExp(`^[${LETTERS}]{${ID_LENGTH}}$`);

/** JSON with every object's keys sorted: the same edit is the same text whatever order a server writes its keys in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function actionId(offer: {
  server: string;
  title: string;
  kind: string;
  edit?: unknown;
  /** The root's URI: an edit's files are named from it. */
  root: string;
}): string {
  const text = canonical([offer.server, offer.title, offer.kind, offer.edit ?? null])
    .split(offer.root)
    .join('');
  const digest = createHash('sha256').update(text).digest();
  let n = digest.readBigUInt64BE(0);
  let id = '';
  const base = BigInt(LETTERS.length);
  for (let i = 0; i < ID_LENGTH; i++) {
    id += LETTERS[Number(n % base)];
    n /= base;
  }
  return id;
}
