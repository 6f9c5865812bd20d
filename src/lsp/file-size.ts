/** How large a file lspq reads and hands a server. */
import { LspqError } from '../common/errors';

/**
 * The largest file lspq hands a server, in bytes (LSPQ_MAX_FILE_MB, default
 * 16). A 50 MB generated file took gopls 25 s and 4.6 GB for one refs, and
 * the daemon held its text twice over; past this it is refused in one line.
 */
export function maxFileBytes(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.LSPQ_MAX_FILE_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : 16) * 1_048_576;
}

/** A size as a person reads it: KB under a megabyte, MB to a tenth above. */
export function sizeOf(bytes: number): string {
  return bytes < 1_048_576 ? `${Math.ceil(bytes / 1024)} KB` : `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;
}

export function tooLarge(path: string, size: number): LspqError {
  return new LspqError(
    'usage',
    `${path} is ${sizeOf(size)}, past the ${sizeOf(maxFileBytes())} lspq hands a server; ask about a smaller file, or raise LSPQ_MAX_FILE_MB for the daemon`,
  );
}
